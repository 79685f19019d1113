export declare function withoutDbusNoise(stderr: string): string;
export declare function screenshotProblem(path: string): string | undefined;
export declare function outputProblem(path: string): string | undefined;
export declare function withAutoDirection(html: string): string;
