export const id = 772;
export const ids = [772];
export const modules = {

/***/ 87772:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   ProxyAgent: () => (/* binding */ ProxyAgent)
/* harmony export */ });
/* harmony import */ var undici_lib_api_api_connect_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(34660);
/* harmony import */ var undici_lib_api_api_connect_js__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(undici_lib_api_api_connect_js__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var undici_lib_dispatcher_pool_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(30628);
/* harmony import */ var undici_lib_dispatcher_pool_js__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(undici_lib_dispatcher_pool_js__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var undici_lib_dispatcher_proxy_agent_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(76672);
/* harmony import */ var undici_lib_dispatcher_proxy_agent_js__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(undici_lib_dispatcher_proxy_agent_js__WEBPACK_IMPORTED_MODULE_2__);
// undici's ProxyAgent from its own file (as src/http/undici.ts takes the Agent), imported only when
// the environment names a proxy (src/http/network.ts): a run without one does not load it.
//
// A tunnel (CONNECT, for https:// addresses) is opened by the `connect` API method, which undici's
// index adds to every dispatcher's prototype and its own files do not: the client to the proxy is
// made here, a Pool as undici makes it, with that method on it.



const UndiciProxy = (undici_lib_dispatcher_proxy_agent_js__WEBPACK_IMPORTED_MODULE_2___default());
const Pool = (undici_lib_dispatcher_pool_js__WEBPACK_IMPORTED_MODULE_1___default());
/** The client to the proxy itself: a Pool that can open tunnels. */
function proxyClient(origin, options) {
    const pool = new Pool(origin, options);
    return Object.assign(pool, { connect: (undici_lib_api_api_connect_js__WEBPACK_IMPORTED_MODULE_0___default()) });
}
class ProxyAgent extends UndiciProxy {
    constructor(options) {
        super({ ...options, clientFactory: proxyClient });
    }
}


/***/ })

};
