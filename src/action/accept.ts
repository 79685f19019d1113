// Accept mode: a maintainer's label commits exactly the replies the PR comment shows. Nothing is
// replayed and no PR code is checked out or run: the inputs are the comment's hidden metadata and
// that run's results artifact, both treated as untrusted data.

import * as core from '@actions/core';
import * as log from './log.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import type { Inputs } from './inputs.js';
import { DEFAULT_SUITE_DIR, sameLabel, suiteName, suiteSlug, workflowFile, type ActionContext, type PullContext } from './context.js';
import type { ActionDeps } from './deps.js';
import { publisher, publishSettings, writeSummary, type Publisher } from './publish.js';
import type { GitHubApi, IssueComment, LabelEvent, LabelEventsPage, PullWithLabels } from '../github/api.js';
import { ACTIONS_BOT_LOGIN, commentPastBound, findStickyComment, isOwnComment } from '../github/sticky.js';
import { isGitHubError, type GitHubError } from '../github/errors.js';
import { deadlineWords, gitHubAnswer, gitHubFailure, gitHubTrouble } from './github-words.js';
import { capitalized, labelWord, listAndMore, listWords, shownJson, shownShellQuote } from '../words.js';
import { hasMarker, NOTICE_RESERVE_CHARS, parseCommentMetadata, renderAcceptSummary, renderComment, type AcceptanceView, type AcceptSummary, type AcceptSummaryComment, type ReportContext } from '../report/index.js';
import type { GateView } from '../report/model.js';
import { clip, escapeInline, inertText, terminalLine } from '../report/escape.js';
import { markerLine, sanitizeMarker } from '../report/metadata.js';
import { MAX_COMMANDS_CHARS } from '../report/blocks.js';
import { byReason, planAcceptance, type AcceptPlan } from '../evaluate/index.js';
import { screenAccepted } from '../accept/screen.js';
import { foreignSuite } from '../accept/suite-dir.js';
import { baselinePath, CONFIG_NAMES, serializeBaseline } from '../suite/index.js';
import { FILE_STYLES, gitBlobSha, inStyleOf, LF_NO_BOM, styleOfBytes, styleOfNewBaseline, type FileStyle } from '../accept/file-style.js';
import { downloadRunRecord, type RecordDownload } from './download.js';
import { olderRecordNote } from '../record/index.js';
import { NOTICE_END, NOTICE_START_MAX, reportUpdatedAt, withNotice } from './notice.js';
import type { Baseline, PersonaBaseline, RunRecord } from '../types.js';
import { UserError } from '../errors.js';
import { redactorOfKnown } from '../secrets.js';
import { docsUrl } from '../version.js';

const ALLOWED_PERMISSIONS = new Set(['admin', 'maintain', 'write']);

class Refusal extends Error {
  override name = 'Refusal';
  /** The comment's hidden metadata is not the check's (someone else edited it): its notice drops it. */
  readonly dropMetadata: boolean;
  constructor(message: string, options: { dropMetadata?: boolean } = {}) {
    super(message);
    this.dropMetadata = options.dropMetadata ?? false;
  }
}

/**
 * The pull request's label events are read newest first, this many a request (GitHub's most), to
 * find when the accept label was applied, in at most LABEL_EVENT_PAGES requests: a timeline with
 * more label events applied since than that (bots relabelling) is not read to its start, and the
 * job is refused (docs/action.md, "Accept").
 */
const LABEL_EVENTS_PER_PAGE = 100;
const LABEL_EVENT_PAGES = 10;

/**
 * Why the job is refused (or null) when the comment was rewritten after the accept label was
 * applied, or in the same second (GitHub's times are to the second): a check that finished in
 * between (a re-run, a check started by the label) replaced the report, so the replies it shows now are not the ones reviewed before the
 * label (docs/action.md, "Accept"). The label is the newest one `sender` applied, the event this job
 * runs for: another user's application since (a triage user's) says nothing about what the sender
 * reviewed. The report's time is compared, not the comment's: an accept job's notice on it (a
 * refusal, a triage user's label) leaves the report as it was and says when that was written. When
 * the whole timeline does not show the label's event (GitHub not caught up), there is nothing to
 * compare and the job goes on; when its newest LABEL_EVENT_PAGES pages do not, the job is refused.
 */
export async function labelRefusal(github: GitHubApi, ctx: Pick<ActionContext, 'owner' | 'repo'>, pr: number, found: Pick<Found, 'comment' | 'runId'>, label: string, sender: string): Promise<string | null> {
  // GraphQL names a bot without the `[bot]` suffix that the event's sender has.
  const login = (name: string): string => name.toLowerCase().replace(/\[bot\]$/, '');
  let applied: LabelEvent | undefined;
  let before: string | null = null;
  for (let pages = 1; ; pages++) {
    const page: LabelEventsPage | null = await github.listLabelEvents(ctx.owner, ctx.repo, pr, { last: LABEL_EVENTS_PER_PAGE, before });
    applied = page?.events.filter((e) => sameLabel(e.label, label) && e.actor !== null && login(e.actor) === login(sender)).at(-1);
    if (applied !== undefined || page === null || page.before === null) break;
    if (pages === LABEL_EVENT_PAGES) {
      return `the ${labelWord(label)} label applied by ${sender} is not among the newest ${LABEL_EVENT_PAGES * LABEL_EVENTS_PER_PAGE} label events of pull request #${pr} (labels applied since, by bots or people; no more are read): when it was applied cannot be compared with the comment's last change, so nothing was written. Apply the label again.`;
    }
    before = page.before;
  }
  if (applied === undefined) {
    log.info(`accept: the timeline of pull request #${pr} does not show the ${labelWord(label)} label applied by ${sender} yet; the comment's last change is not compared with it`);
    return null;
  }
  const reportAt = reportUpdatedAt(found.comment);
  // GitHub's times are to the second: a report written in the label's second was not reviewed before it.
  if (reportAt === null || !(Date.parse(reportAt) >= Date.parse(applied.createdAt))) return null;
  const when = Date.parse(reportAt) === Date.parse(applied.createdAt) ? 'in the same second as' : 'after';
  return `the comment was updated at ${reportAt}, ${when} the ${labelWord(label)} label was applied at ${applied.createdAt}: it now shows workflow run ${found.runId}, whose replies may not be the ones reviewed, so nothing was written. Review the comment as it is now, then apply the label again.`;
}

/**
 * Refuses a comment that someone else edited since the check wrote it (GraphQL `IssueComment.editor`:
 * REST names only its author): its report may not show the recorded replies, and its hidden
 * metadata may name another run. Its notice drops that metadata, so only a new check names a run
 * again (docs/action.md, "Accept: the label commits the reviewed replies").
 */
export async function checkLastEditor(github: GitHubApi, found: Pick<Found, 'comment'>): Promise<void> {
  const edit = await github.commentLastEdit(found.comment.node_id);
  if (edit === null || edit.editedAt === null) return;
  // An edit GitHub names no editor for is not taken for someone else's: refusing it would refuse
  // every comment the check itself had rewritten, were GitHub to leave its own edits unnamed.
  if (edit.editor === null) {
    log.info(`accept: GitHub does not say who last edited the comment (at ${edit.editedAt}); it is taken as the check's`);
    return;
  }
  const viewer = await github.viewerLogin();
  if (isOwnComment({ ...found.comment, user: edit.editor }, viewer)) return;
  throw new Refusal(
    `the comment was last edited by ${edit.editor.login} at ${edit.editedAt}, not by the check that wrote it: its report and hidden metadata may not be the check's, so nothing was written. Re-run the check so that it writes the comment again, review it, then apply the label again.`,
    { dropMetadata: true },
  );
}

/** How a workflow run that has not completed is described, in words (never the API's enum). */
export function runStateSentence(status: string | null): string {
  switch (status) {
    case 'in_progress':
      return 'is still running';
    case 'queued':
      return 'is still queued';
    case 'requested':
    case 'pending':
      return 'has not started yet';
    case 'waiting':
      return 'is waiting for an approval or a deployment protection rule';
    default:
      return 'has not finished yet';
  }
}

/** The suite folder inside the repository, as a clean relative POSIX path; refused otherwise, the input quoted on its line (terminalLine). */
export function repoSuiteDir(dir: string): string {
  const clean = posix.normalize(dir.replace(/\\/g, '/')).replace(/\/+$/, '');
  if (clean.startsWith('/') || clean === '..' || clean.startsWith('../') || clean === '') {
    throw new Refusal(`the dir input "${terminalLine(dir)}" must be a relative path inside the repository`);
  }
  return clean;
}

/**
 * The reviewed run's items are files of the suite it ran: when none is in `suiteDir`, the accept
 * job's dir input names another folder than the check workflow's, and the baselines would be
 * committed where the suite does not read them (docs/action.md, "Accept").
 */
function checkSuiteDir(record: RunRecord, suiteDir: string): void {
  const shown = (text: string): string => clip(text, 200);
  // A record that says where its suite is in the repository is matched by that path, which two
  // suites' folders of the same name do not share (docs/results-json.md, `suitePath`).
  if (record.suitePath !== undefined) {
    const ran = posix.normalize(record.suitePath);
    if (ran === suiteDir) return;
    throw new Refusal(
      `the reviewed run's suite is ${shown(ran)} in the repository (its results.json's suitePath), not ${suiteDir}, the accept job's dir input: its baselines would be written where the suite does not read them, so nothing was written. Set the dir input of the accept job to ${shown(ran)} (as the check workflow's), then apply the label again.`,
    );
  }
  const foreign = foreignSuite(record, suiteDir);
  if (foreign === null) return;
  const { ranIn, first } = foreign;
  throw new Refusal(
    ranIn !== null
      ? `the reviewed run's suite is in ${shown(ranIn)} (the first of its files is ${shown(first)}), not in ${suiteDir}, the accept job's dir input: its baselines would be written where the suite does not read them, so nothing was written. Set the dir input of the accept job to ${shown(ranIn)} (as the check workflow's), then apply the label again.`
      : `the reviewed run's items are not files of ${suiteDir}, the accept job's dir input (the first is ${shown(first)}): its baselines would be written where the suite does not read them, so nothing was written. Set the dir input of the accept job to the check workflow's, then apply the label again.`,
  );
}

/**
 * The head moved only by accept steps (`byOthers`; `ours`, this suite's own commit among them, from
 * an earlier attempt of the job), or not: then `why`, naming the file, when the commits on top were
 * all baseline commits.
 */
export interface HeadMove {
  byOthers: boolean;
  ours: string | null;
  /** With `ours`: the files of this suite the commits on top change (the head must hold the reviewed replies in them: acceptanceDiffers). */
  ownFiles: string[];
  why: string | null;
}

/**
 * The log line for a head moved since the review only by other suites' acceptances: the suite
 * folder (the dir input) named on its one line (terminalLine), as the refusals name it (log.info
 * writes a line break in it as one).
 */
export function movedByOthersLine(reviewedSha: string, headSha: string, suiteDir: string): string {
  return `accept: the head moved from the reviewed ${reviewedSha.slice(0, 7)} to ${headSha.slice(0, 7)} only by baseline commits of other suites: ${terminalLine(suiteDir)} is as reviewed, so its baselines are committed on ${headSha.slice(0, 7)}`;
}

/**
 * How the branch moved from the reviewed head to `head`: only by agent-replay's baseline commits of
 * the replies recorded at the reviewed head, the accept steps of other suites on the same label and
 * this suite's own step in an earlier attempt of the job (a re-run) (docs/action.md, "Two suites in
 * one repository"), or not. So it did when `head` is the reviewed head with commits on top and
 * nothing else, each an acceptance of the replies recorded there, and every file they change (added
 * or changed, never removed) is `<suite>/baselines/<label>.json`: of another suite, or of this one
 * when one of the commits reads as this suite's own acceptance of the reviewed run (`ours`, the
 * newest such commit; whether its files hold the reviewed replies is acceptanceDiffers' to say). Another suite's file is in a folder outside `suiteDir` that
 * holds what a suite holds at `head` (a configuration file, config.yml, or, for a suite whose
 * settings all come from the inputs, a fixtures or personas folder), and one of the commits accepts
 * its label for that folder (its message names the folder as its suite's, as commitMessage writes
 * it, and lists the label). A commit message can be copied by anyone who can push, so the files
 * decide too: a `baselines` folder that is no suite's (a prompt the agent reads,
 * `src/prompts/baselines/system.json`, beside another tool's config.yml) is a moved head. The
 * commits on top change only `.json` files in `baselines` folders, so a folder holds at each of them
 * what it holds at `head`. This suite, its baselines and the agent's code are
 * then at `head` as they were reviewed. Anything else (a push, a commit that touches this suite
 * without being its acceptance, more than GitHub lists at once) is a moved head, as before. GitHub's
 * commit verification is not asked: a commit signed by GitHub may be anyone's edit in the web editor
 * or through the API, and GitHub Enterprise Server signs none unless its administrator set it up.
 */
export async function movedByAcceptances(
  github: GitHubApi,
  ctx: Pick<ActionContext, 'owner' | 'repo'>,
  found: Pick<Found, 'headSha' | 'runId'>,
  head: string,
  suiteDir: string,
  suite: string | null,
): Promise<HeadMove> {
  const base = found.headSha;
  const no = (why: string | null = null): HeadMove => ({ byOthers: false, ours: null, ownFiles: [], why });
  const c = await github.compareCommits(ctx.owner, ctx.repo, base, head);
  if (c.status !== 'ahead' || c.commits.length === 0 || c.commits.length !== c.totalCommits || c.files.length === 0 || c.files.length >= 300) return no();
  const acceptances = c.commits.every((k) => k.message.startsWith(COMMIT_HEADLINE) && k.message.includes(`\n\n${recordedAt(base)}`));
  if (!acceptances) return no();
  const own = `\n\n${recordedAt(base)}workflow run ${found.runId})${suite === null ? '' : ` for the suite in ${suite}`}:\n`;
  const ours = c.commits.filter((k) => k.message.includes(own)).at(-1)?.sha ?? null;
  const inSuite = (path: string): boolean => suiteDir === '.' || path.startsWith(`${suiteDir}/`);
  const shown = (path: string): string => clip(path, 200);
  const notOthers = (path: string, because: string): HeadMove => no(`the commits on top of it read as baseline commits, but they change ${shown(path)}, which is not another suite's baseline (${because})`);
  const accepted = new Set(c.commits.flatMap((k) => acceptedInMessage(k.message)));
  const suites = new Map<string, string>(); // another suite's folder, and the first file changed in it
  const unnamed: { path: string; folder: string; label: string }[] = []; // files no commit accepts for their folder
  const ownFiles: string[] = [];
  for (const f of c.files) {
    if (f.status !== 'added' && f.status !== 'modified') return notOthers(f.path, `${f.status}: an accept step only adds and changes baselines`);
    const m = /^(?:(.+)\/)?baselines\/([^/]+)\.json$/.exec(f.path);
    if (m === null) return notOthers(f.path, 'a baseline is <suite folder>/baselines/<label>.json');
    if (inSuite(f.path)) {
      if (ours === null) return notOthers(f.path, `it is in ${suiteDir}, this suite's folder`);
      ownFiles.push(f.path);
      continue;
    }
    const folder = m[1] ?? '.';
    if (!suites.has(folder)) suites.set(folder, f.path);
    if (!accepted.has(`${folder}\n${m[2] as string}`)) unnamed.push({ path: f.path, folder, label: m[2] as string });
  }
  const holds = async (folder: string, name: string, kind: 'file' | 'folder'): Promise<boolean> => (await github.getContent(ctx.owner, ctx.repo, posix.join(folder, name), head))?.kind === kind;
  for (const [folder, first] of suites) {
    let isSuite = false;
    for (const [name, kind] of [...CONFIG_NAMES.map((n) => [n, 'file'] as const), ['fixtures', 'folder'] as const, ['personas', 'folder'] as const]) {
      if (await holds(folder, name, kind)) {
        isSuite = true;
        break;
      }
    }
    if (!isSuite) return notOthers(first, `${shown(folder)} holds no ${CONFIG_NAMES.join(' or ')}, fixtures or personas folder at ${head.slice(0, 7)}, so it is not a suite's folder`);
  }
  const u = unnamed[0];
  if (u !== undefined) return notOthers(u.path, `none of the commits accepts ${shown(u.label)} for the suite in ${shown(u.folder)}: their messages name other suites or labels`);
  return { byOthers: true, ours, ownFiles, why: null };
}

/** The most stored baselines read whole for their line endings: past them, a file is written as a new one (docs/fixtures.md). */
const MAX_STYLE_READS = 100;

/** An accepted baseline as a file of the repository: its text as serializeBaseline writes it (LF), and the style it is written in. */
interface BaselineFile {
  path: string;
  contents: string;
  style: FileStyle;
}

/** The file's bytes as written: its text in its style. */
const styledText = (f: BaselineFile): string => inStyleOf(f.style, f.contents);

/**
 * The accepted baselines as files of the repository at `onto`, each in the style (line endings,
 * byte-order mark) of the file it replaces as stored there, so that the diff of the commit (or of a
 * fork's own commit of them) shows the lines that changed, not every line (docs/fixtures.md, "Line
 * endings and byte-order marks"). The baselines folder is listed at `onto` (one request); a file's
 * style is known from its blob's id when it is the record's baseline in one of the styles (what an
 * acceptance wrote), else its blob is read. A new file, or one past MAX_STYLE_READS reads, takes the
 * style of the folder's first baseline (styleOfNewBaseline, as the CLI's accept chooses it).
 */
async function filesInStoredStyle(
  github: GitHubApi,
  ctx: ActionContext,
  onto: string,
  suiteDir: string,
  accepted: readonly (Baseline | PersonaBaseline)[],
  stored: ReadonlyMap<string, Baseline | PersonaBaseline>,
): Promise<BaselineFile[]> {
  const folder = await github.getContent(ctx.owner, ctx.repo, posix.join(suiteDir, 'baselines'), onto);
  const listed = folder?.kind === 'folder' ? folder.entries : [];
  const entries = listed.filter((e) => e.type === 'file' && e.name.endsWith('.json'));
  // GitHub lists at most 1,000 entries of a folder: past them, each file is asked for.
  const whole = listed.length < 1000;
  const ids = new Map(entries.map((e) => [e.name, e.sha]));
  const styles = new Map<string, FileStyle>();
  let reads = 0;
  const styleOf = async (sha: string, label: string): Promise<FileStyle | null> => {
    const known = styles.get(sha);
    if (known !== undefined) return known;
    const recorded = stored.get(label);
    let style = recorded === undefined ? undefined : FILE_STYLES.find((st) => gitBlobSha(inStyleOf(st, serializeBaseline(recorded))) === sha);
    if (style === undefined) {
      if (reads >= MAX_STYLE_READS) return null;
      reads++;
      style = styleOfBytes(await github.getBlob(ctx.owner, ctx.repo, sha));
    }
    styles.set(sha, style);
    return style;
  };
  let folderStyle: FileStyle | null = null;
  const newStyle = async (): Promise<FileStyle> =>
    (folderStyle ??= await styleOfNewBaseline(
      entries.map((e) => e.name),
      (name) => styleOf(ids.get(name) as string, name.slice(0, -'.json'.length)),
    ));
  const files: BaselineFile[] = [];
  for (const b of accepted) {
    const path = baselineRepoPath(suiteDir, b.label);
    let sha = ids.get(`${b.label}.json`);
    if (sha === undefined && !whole) {
      const file = await github.getContent(ctx.owner, ctx.repo, path, onto);
      if (file?.kind === 'file') sha = file.sha;
    }
    const style = (sha === undefined ? null : await styleOf(sha, b.label)) ?? (await newStyle());
    files.push({ path, contents: serializeBaseline(b), style });
  }
  return files;
}

/** `<suiteDir>/baselines/<label>.json` in the repository; baselinePath refuses a label that is invalid or would leave the folder. */
function baselineRepoPath(suiteDir: string, label: string): string {
  const baselinesDir = posix.join(suiteDir, 'baselines');
  try {
    baselinePath(baselinesDir, label);
  } catch (e) {
    throw new Refusal((e as Error).message);
  }
  return posix.join(baselinesDir, `${label}.json`);
}

/** The reviewed run, as the check's comment names it. */
export interface Found {
  comment: IssueComment;
  headSha: string;
  runId: number;
  artifactName: string;
  /** The commit that already accepted this run's baselines, when one did. */
  acceptedSha: string | null;
  /** The check's gate, when it failed and the comment says it; null in an older comment. */
  gate: GateView | null;
}

/**
 * The report context of the comment the accept job writes: the reviewed check run's, whose job
 * summary is the full report and whose artifact holds the results (the accept job's own run has
 * neither), and the reviewed head, whose baselines the run compared with (the accept job's commit is
 * the base branch's on pull_request_target) (docs/action.md, "The PR comment").
 */
export function reviewedContext(out: Pick<Publisher, 'reportContext'>, ctx: ActionContext, found: Pick<Found, 'headSha' | 'runId' | 'artifactName'>): ReportContext {
  return out.reportContext({ ...ctx, sha: found.headSha, runId: String(found.runId) }, found.artifactName);
}

/**
 * The comment the accept job writes over the reviewed one. Without a commit (nothing to accept, a
 * fork's pull request) it shows the same run against the same baselines as the check did, so it
 * says the check's gate as the comment kept it: a check that fails is never shown a ✅ (docs/action.md,
 * "Accept"). After a commit the run is shown against the baselines it committed: no gate is said.
 */
export function acceptanceComment(record: RunRecord, rctx: ReportContext, found: Pick<Found, 'headSha' | 'runId' | 'gate'>, acceptance: AcceptanceView): string {
  const committed = acceptance.commitSha !== null && acceptance.accepted.length > 0;
  return renderComment(record, { ...rctx, headSha: found.headSha, runId: String(found.runId), acceptance, gate: committed ? null : found.gate });
}

/**
 * The run the check's comment under `marker` names, read from the pull request's comments; a
 * Refusal when there is none (past the comments read, under another key or suite folder, none yet)
 * or it names no recorded run.
 */
export async function findReviewedRun(github: GitHubApi, ctx: Pick<ActionContext, 'owner' | 'repo'>, prNumber: number, marker: string): Promise<Found> {
  const [viewer, { comments, more }] = await Promise.all([github.viewerLogin(), github.listIssueComments(ctx.owner, ctx.repo, prNumber)]);
  const comment = findStickyComment(comments, viewer, marker, hasMarker);
  if (comment === null && more) {
    throw new Refusal(`${commentPastBound(prNumber)}, so the reviewed run cannot be found, and nothing was written. Accept in a clone instead: download the results artifact of the reviewed check run, then run agent-replay accept --results <its results.json> (${docsUrl('cli.md', 'What each command does')}) and push.`);
  }
  if (comment === null) {
    // Our comments under other keys: the accept job's comment-key names the check workflow's comment (docs/action.md, "Accept").
    const others = [...new Set(comments.filter((c) => isOwnComment(c, viewer)).map((c) => parseCommentMetadata(c.body)?.marker).filter((m): m is string => m !== undefined && m !== sanitizeMarker(marker)))];
    // A marker is the key, then `:` and the suite's folder when it is not the default one
    // (docs/action.md, "Two suites in one repository"): the same key with another folder is another suite's comment.
    const keyOf = (m: string): string => m.split(':', 1)[0] as string;
    const suiteOf = (m: string): string => (m.includes(':') ? m.slice(m.indexOf(':') + 1) : DEFAULT_SUITE_DIR);
    const suites = others.filter((m) => keyOf(m) === keyOf(sanitizeMarker(marker)));
    if (suites.length > 0) {
      throw new Refusal(
        `there is no agent-replay comment for the suite in ${suiteOf(sanitizeMarker(marker))} (the accept job's dir input) on this pull request, only for the suite in ${suites.map((m) => suiteOf(m)).join(' and the suite in ')}: set the dir input of the accept job to ${suites.map((m) => suiteOf(m)).join(' or ')} (as the check workflow's), or, when the check of ${suiteOf(sanitizeMarker(marker))} has not commented yet, let it finish and review its comment; then apply the label again.`,
      );
    }
    if (others.length > 0) {
      throw new Refusal(
        `there is no agent-replay comment with the key "${marker}" on this pull request, but there is one with the key ${others.map((m) => `"${m}"`).join(', ')}: set the comment-key input of the accept job to "${others[0] as string}" (the check workflow's name), then apply the label again.`,
      );
    }
    throw new Refusal('there is no agent-replay comment on this pull request yet. Let the check run finish, review its comment, then apply the label again.');
  }
  const meta = parseCommentMetadata(comment.body);
  if (meta === null || meta.headSha === null || meta.runId === null || meta.artifactName === null) {
    throw new Refusal('the agent-replay comment does not name a recorded run (it may show a configuration error or a cost-cap refusal). Fix that, let the check run, then apply the label again.');
  }
  return { comment, headSha: meta.headSha, runId: Number(meta.runId), artifactName: meta.artifactName, acceptedSha: meta.acceptedSha ?? null, gate: meta.gate ?? null };
}

/**
 * Why the reviewed run's record cannot be accepted, in the words of the refusal, or null when it
 * can: what downloadRunRecord found, and a record made at another commit than the reviewed head.
 */
export function recordRefusal(d: RecordDownload, found: Pick<Found, 'headSha' | 'runId' | 'artifactName'>): string | null {
  const name = found.artifactName;
  switch (d.kind) {
    case 'no_run':
      return `the workflow run ${found.runId} that the comment shows no longer exists. Re-run the check, then apply the label again.`;
    case 'not_completed':
      return `the workflow run ${found.runId} ${runStateSentence(d.status)}. Wait for it to finish, then apply the label again.`;
    case 'missing':
      return `the results artifact ${name} of run ${found.runId} is missing. Re-run the check, then apply the label again.`;
    case 'expired':
      return `the results artifact ${name} of run ${found.runId} has expired. Re-run the check, then apply the label again.`;
    case 'unreadable':
      return `the results artifact could not be read (${d.detail}). Re-run the check.`;
    case 'no_results':
      return 'the results artifact holds no results.json. Re-run the check.';
    case 'rejected':
      return `the results artifact was rejected: ${d.detail}`;
    case 'ok':
      if (d.record.commit !== found.headSha) {
        return `the results artifact was recorded at ${String(d.record.commit).slice(0, 7)}, not at the reviewed commit ${found.headSha.slice(0, 7)}. Re-run the check.`;
      }
      return null;
  }
}

async function downloadRecord(github: GitHubApi, ctx: ActionContext, found: Found): Promise<RunRecord> {
  const d = await downloadRunRecord(github, { owner: ctx.owner, repo: ctx.repo, runId: found.runId, artifact: found.artifactName });
  const refusal = recordRefusal(d, found);
  if (refusal !== null) throw new Refusal(refusal);
  const record = (d as Extract<RecordDownload, { kind: 'ok' }>).record;
  // Items that read as written though a run now stores them otherwise (accept refuses them): said once (docs/results-json.md, "Records of an older agent-replay").
  const note = olderRecordNote(record);
  if (note !== null) log.warning(note);
  return record;
}

/** How every baseline commit's message starts (the headline), and what its body says first: `movedByAcceptances` reads them back. */
export const COMMIT_HEADLINE = 'Accept agent-replay baselines: ';
const recordedAt = (sha: string): string => `Accepted the replies recorded at ${sha} (`;

/**
 * What a baseline commit's message says it accepted, as commitMessage writes it: `<suite folder>\n<label>`
 * for each label listed, the folder the one its body names (`for the suite in ...`), DEFAULT_SUITE_DIR
 * when it names none. Nothing for a message that does not read so.
 */
function acceptedInMessage(message: string): string[] {
  const m = /\n\nAccepted the replies recorded at [0-9a-f]{40} \(workflow run \d+\)(?: for the suite in ([^\n]+))?:\n([\s\S]*)$/.exec(message);
  if (m === null) return [];
  const folder = posix.normalize(m[1] ?? DEFAULT_SUITE_DIR);
  // The accepted labels come first, one a line; the refused, after "Refused:", are not written.
  const listed = (m[2] as string).split('\nRefused:')[0] as string;
  return [...listed.matchAll(/^- ([A-Za-z0-9][A-Za-z0-9._-]*) \(/gm)].map((l) => `${folder}\n${l[1] as string}`);
}

/** The labels a baseline commit's headline names: the first three, then how many more, grouped ("a, b, c and 1,197 more"). */
export function acceptedShown(labels: readonly string[]): string {
  return listAndMore(labels, 3, (l) => l);
}

function commitMessage(plan: AcceptPlan, found: Found, suite: string | null): { headline: string; body: string } {
  const shown = acceptedShown(plan.accepted.map((b) => b.label));
  return {
    headline: `${COMMIT_HEADLINE}${shown}`,
    body: [
      `${recordedAt(found.headSha)}workflow run ${found.runId})${suite === null ? '' : ` for the suite in ${suite}`}:`,
      '',
      ...plan.accepted.map((b) => `- ${b.label} (${b.verdict})`),
      // A reason may quote the agent or a judge (a meaning's difference): inert in a commit message (docs/security.md, "The accept flow").
      ...(plan.refused.length ? ['', 'Refused:', ...byReason(plan.refused).map((g) => `- ${listWords(g.items.map((r) => r.label))}: ${inertText(g.reason)}`)] : []),
    ].join('\n'),
  };
}

/**
 * Why GitHub refused the commit, with the fix, for the answers a maintainer can act on: the token
 * lacks contents: write, a branch protection rule or a ruleset keeps the token off the branch, the
 * branch is gone, another GraphQL answer said as it is (docs/action.md, "Accept"). Null for the
 * others (a network or server failure).
 */
export function commitRefusal(e: GitHubError, branchName: string): string | null {
  const answer = gitHubAnswer(e);
  const branch = terminalLine(branchName);
  switch (e.kind) {
    case 'forbidden':
      return `GitHub refused the commit on the branch ${branch} (${answer}): the accept job needs the contents: write permission, so nothing was written. Add it to the accept workflow's permissions, then apply the label again.`;
    case 'not_found':
      return `GitHub found no branch ${branch} to commit to (${answer}): it was deleted or renamed, so nothing was written. Push the branch again, then apply the label again.`;
    case 'other':
      if (e.graphqlTypes.length === 0) return null;
      // A classic protection rule answers BRANCH_PROTECTION_RULE_VIOLATION ("protected branch 'x' check failed"), a ruleset "Repository rule violations found".
      if (e.graphqlTypes.includes('BRANCH_PROTECTION_RULE_VIOLATION') || /protected branch|rule violation/i.test(answer)) {
        return `GitHub refused the commit on the branch ${branch} (${answer}): a branch protection rule or a ruleset does not let this token push to it, so nothing was written. Let the accept job's token push to ${branch} (or give the job a GitHub App token that may), or run agent-replay accept in a clone of the branch and push; then apply the label again.`;
      }
      // Any other answer (about a path, a file, the request): said as it is, without a cause it does not name.
      return `GitHub refused the commit on the branch ${branch} (${answer}), so nothing was written. Fix what the answer names on the branch (the baselines folder, a file in it), or run agent-replay accept in a clone of the branch and push; then apply the label again.`;
    default:
      return null;
  }
}

/**
 * The refusal as a notice that fits the room the renderer leaves under GitHub's limit
 * (NOTICE_RESERVE_CHARS): the reason is shortened, before escaping, until the notice fits.
 */
export function refusalNotice(reason: string): string {
  const room = NOTICE_RESERVE_CHARS - NOTICE_START_MAX.length - NOTICE_END.length - 4;
  let shown = reason;
  for (;;) {
    const notice = `> [!WARNING]\n> **Baselines not accepted.** ${escapeInline(capitalized(shown))}`;
    if (notice.length <= room || shown.length <= 1) return notice;
    shown = clip(reason, Math.floor(shown.length * 0.8));
  }
}

/**
 * Adds the notice to our comment as it is now (listed afresh: the check may have updated it since),
 * keeping its report and hidden metadata. With no comment yet, posts the notice alone, under the
 * marker but with no metadata: nothing can take it for a reviewed run, and the next check run
 * replaces it.
 */
async function addNotice(github: GitHubApi, ctx: ActionContext, prNumber: number, marker: string, notice: string, dropMetadata = false): Promise<void> {
  try {
    const [viewer, { comments, more }] = await Promise.all([github.viewerLogin(), github.listIssueComments(ctx.owner, ctx.repo, prNumber)]);
    const ours = findStickyComment(comments, viewer, marker, hasMarker);
    if (ours === null && more) throw new Error(commentPastBound(prNumber));
    if (ours) await github.updateComment(ctx.owner, ctx.repo, ours.id, withNotice(ours.body, notice, reportUpdatedAt(ours), dropMetadata));
    else await github.createComment(ctx.owner, ctx.repo, prNumber, withNotice(markerLine(marker), notice));
  } catch (e) {
    log.warning(`comment: the notice was not added: ${gitHubFailure(e, 'pull-requests: write')}`);
  }
}

/** The outcome as the job summary says it. */
const commentState = (c: CommentOutcome): AcceptSummaryComment => (c.kind === 'updated' ? { kind: 'updated' } : { kind: 'newer', runId: c.runId });

/** What became of the reviewed run's comment at the end of an acceptance. */
type CommentOutcome = { kind: 'updated' } | { kind: 'newer'; runId: string | null; headSha: string | null };

/**
 * Writes `body` over the reviewed run's comment, read again first: when it now shows another run
 * (a check that ran since on the baseline commit, a push or a re-run, replaced it), it is left as
 * it is, since the accept job's view of an older run must not overwrite a newer check's report
 * (docs/action.md, "Accept"). GitHub has no conditional update of a comment: the window left is
 * the time between this read and the write. A comment deleted since is written to as before (the
 * update then fails as not found).
 */
async function updateReviewedComment(github: GitHubApi, ctx: ActionContext, pr: number, found: Found, body: string): Promise<CommentOutcome> {
  const now = (await github.listIssueComments(ctx.owner, ctx.repo, pr)).comments.find((c) => c.id === found.comment.id);
  const meta = now === undefined ? null : parseCommentMetadata(now.body);
  if (now !== undefined && (meta === null || meta.runId === null || Number(meta.runId) !== found.runId || meta.headSha !== found.headSha)) {
    const runId = meta?.runId ?? null;
    const headSha = meta?.headSha ?? null;
    log.info(
      `accept: the comment now shows ${runId !== null ? `workflow run ${runId}${headSha !== null ? ` at ${headSha.slice(0, 7)}` : ''}` : 'another check'}, not the reviewed run ${found.runId}: a newer check replaced it, so it is left as it is`,
    );
    return { kind: 'newer', runId, headSha };
  }
  await github.updateComment(ctx.owner, ctx.repo, found.comment.id, body);
  return { kind: 'updated' };
}

/** A baseline file for a fork: its text (LF), and its style, LF without a mark when not given. */
type ForkFile = { path: string; contents: string; style?: FileStyle };

export interface ForkCommandsInput {
  files: readonly ForkFile[];
  headRef: string;
  /** The baselines folder in the repository, e.g. `.agent-replay/baselines`. */
  baselinesDir: string;
  /** The artifact holding the baseline files (flat: `<label>.json`), when it was uploaded. */
  download: { runId: string; repo: string; artifactName: string } | null;
  /**
   * Without `download`: the reviewed run's results artifact and the suite folder, to accept it with
   * the CLI instead of holding the files' contents (too long for the comment).
   */
  results?: { runId: string; repo: string; artifactName: string; suiteDir: string } | null;
}

/**
 * Shell commands that apply the baselines in a clone of a fork, which the workflow cannot push to.
 * With the artifact: download it from the base repository (`-R`) into a fresh temporary folder
 * (gh refuses to overwrite files, and most baselines already exist), then copy the files into the
 * baselines folder. Without it: the files' contents inline, each written in its style (a CRLF or
 * marked file gets its line endings and mark from awk and printf, which every POSIX system has:
 * the comment's text keeps neither). Each word single-quoted, but a folder with a control character
 * in $'...' (words.ts shownShellQuote), which the comment shows as it is and bash or zsh reads.
 */
export function forkCommands(input: ForkCommandsInput): string {
  const dir = shownShellQuote(input.baselinesDir);
  const lines = [`git checkout ${shownShellQuote(input.headRef)}`, `mkdir -p ${dir}`];
  if (input.download) {
    const d = input.download;
    lines.push(
      'tmp="$(mktemp -d)"',
      `gh run download ${d.runId} -R ${shownShellQuote(d.repo)} -n ${shownShellQuote(d.artifactName)} -D "$tmp"`,
      `cp "$tmp"/*.json ${dir}/`,
      'rm -r "$tmp"',
    );
  } else if (input.results) {
    const r = input.results;
    lines.push(
      'tmp="$(mktemp -d)"',
      `gh run download ${r.runId} -R ${shownShellQuote(r.repo)} -n ${shownShellQuote(r.artifactName)} -D "$tmp"`,
      `npx agent-replay accept --results "$tmp/results.json" --dir ${shownShellQuote(r.suiteDir)}`,
      'rm -r "$tmp"',
    );
  } else {
    for (const f of input.files) {
      let tag = 'AGENT_REPLAY_EOF';
      while (f.contents.split('\n').includes(tag)) tag += '_';
      lines.push(`${writeCommand(f)} <<'${tag}'`, f.contents.replace(/\n$/, ''), tag);
    }
  }
  lines.push(`git add ${dir}`, 'git commit -m "Accept agent-replay baselines"', 'git push');
  return lines.join('\n');
}

/** The command that writes the here-document's text (LF, ending with a line break) to the file, in the file's style. */
function writeCommand(f: ForkFile): string {
  const target = shownShellQuote(f.path);
  const style = f.style ?? LF_NO_BOM;
  if (!style.crlf && !style.bom) return `cat > ${target}`;
  const mark = style.bom ? "printf '\\357\\273\\277'; " : '';
  const lines = style.crlf ? `awk '{ printf "%s\\r\\n", $0 }'` : 'cat';
  return `{ ${mark}${lines}; } > ${target}`;
}

/** Writes the baseline files flat (`<label>.json`) into a new temporary folder, for the artifact, each in its style. */
export async function stageBaselineFiles(files: readonly ForkFile[]): Promise<{ root: string; paths: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'agent-replay-baselines-'));
  const paths: string[] = [];
  for (const f of files) {
    const target = join(root, posix.basename(f.path));
    await writeFile(target, inStyleOf(f.style ?? LF_NO_BOM, f.contents), { encoding: 'utf8', flag: 'wx' });
    paths.push(target);
  }
  return { root, paths };
}

/** What the comment says after a commit about the check on the new head. */
async function dispatchCheck(github: GitHubApi, inputs: Inputs, ctx: ActionContext, branch: string, commitSha: string): Promise<string> {
  const short = commitSha.slice(0, 7);
  if (inputs.checkWorkflow === null) {
    // GraphQL names the workflow token's identity `github-actions`; unknown (GitHub not answering
    // either, after the commit) counts as the workflow token.
    const viewer = await github.viewerLogin().catch(() => null);
    if (viewer !== null && viewer.replace(/\[bot\]$/, '').toLowerCase() !== ACTIONS_BOT_LOGIN.replace(/\[bot\]$/, '')) {
      log.info(`accept: committed as ${viewer}, not with the workflow token: the push starts the pull request's workflows`);
      return `The commit was made as ${viewer}, not with the workflow token, so it starts the pull request's workflows like any push.`;
    }
    log.info(`accept: no check-workflow input: nothing dispatched; no check will run on ${short} until a push`);
    return `Commits made with the workflow token start no workflow, ${noCheckOn(short)}. To have it run automatically, set the check-workflow input of the accept job (it needs actions: write), or give the accept job a GitHub App token.`;
  }
  const wf = inputs.checkWorkflow;
  try {
    const res = await github.dispatchWorkflow(ctx.owner, ctx.repo, wf, branch);
    log.info(dispatchedLine(wf, branch, res.runUrl));
    return `The check workflow ${wf} was started on ${branch}: its run compares ${short} with the new baselines and updates this comment.`;
  } catch (e) {
    if (!isGitHubError(e)) throw e;
    const why = dispatchFailure(e, wf);
    log.warning(notDispatchedLine(short, wf, branch, why));
    return `The check workflow ${wf} could not be started on ${branch} (${why}), ${noCheckOn(short)}.`;
  }
}

/** accept's log line of the check workflow dispatched on the branch: the branch on its one line (terminalLine: log.info writes a line break of its text as one). */
export function dispatchedLine(wf: string, branch: string, runUrl: string | null): string {
  return `accept: dispatched ${wf} on ${terminalLine(branch)}${runUrl ? ` (${runUrl})` : ''}`;
}

/** accept's warning of the check workflow not dispatched on the branch after the commit, and why: the branch on its one line, as dispatchedLine. */
export function notDispatchedLine(short: string, wf: string, branch: string, why: string): string {
  return `accept: the baselines were committed in ${short}, but the check workflow ${wf} was not dispatched on ${terminalLine(branch)}: ${why}`;
}

/**
 * "so no check will run on <sha> by itself: push another commit ...": a push is what checks the
 * baseline commit. A re-run of an earlier check is not: GitHub re-runs a run with its event's own
 * commit, which holds no new baselines (docs/action.md, "Accept: the label commits the reviewed replies").
 */
function noCheckOn(short: string): string {
  return `so no check will run on ${short} by itself: push another commit (an empty one will do) to compare against the new baselines; a re-run of an earlier check replays the commit it ran on, without them`;
}

/** Why GitHub did not start the check workflow `wf`, with what to change: the permission, the file, its trigger. */
export function dispatchFailure(e: GitHubError, wf: string): string {
  const trouble = gitHubTrouble(e);
  return e.status === 403
    ? `${trouble}: the accept job needs the actions: write permission`
    : e.status === 404
      ? `${trouble}: there is no workflow ${wf} in this repository (the check-workflow input names its file in .github/workflows)`
      : e.status === 422
        ? `${trouble}: the workflow ${wf} needs a workflow_dispatch trigger`
        : trouble;
}

/** A failure of GitHub itself rather than an answer about the request: the connection, a 5xx, a rate limit not waited out. */
function unanswered(e: GitHubError): boolean {
  return e.kind === 'network' || e.kind === 'server' || e.kind === 'rate_limited';
}

/** How many of the branch's newest commits are read back to find a commit whose answer was lost. */
const HISTORY_DEPTH = 20;

/** Whitespace-insensitive, as GitHub may normalize a commit message's line ends. */
const sameText = (a: string, b: string): boolean => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * The refusal when the commit's answer was lost and the branch could not be read back either:
 * `what` went wrong with the commit, then what the read got, after a colon rather than in brackets
 * (a network error's words end in their own: "... without answering (UND_ERR_SOCKET)").
 */
export function unreadBranchText(what: string, branch: string, readError: GitHubError, headline: string, kept: string): string {
  const read = readError.kind === 'network' ? (deadlineWords(readError.detail) ?? gitHubAnswer(readError)) : `GitHub answered ${gitHubAnswer(readError)}`;
  return (
    `${what}, and the branch ${terminalLine(branch)} could not be read back: ${read}. Whether the commit landed is unknown. Look at the branch: if its newest commit is "${headline}", ` +
    `the baselines are in and the next check compares with them; if not, nothing was written: re-run this job, or apply the label again. ${kept}.`
  );
}

/**
 * The commit request failed without an answer to act on (the connection, a 5xx, after the
 * retries), or GitHub said the branch moved (which a retry of a commit that did land says too):
 * the branch is read back to tell whether our commit landed, nothing was written, or someone
 * else pushed. Returns the commit when it landed, else throws the refusal that says which.
 */
export async function afterCommitFailure(
  github: GitHubApi,
  e: GitHubError,
  target: { repoWithOwner: string; branch: string; serverUrl: string; onto: string },
  found: Pick<Found, 'headSha' | 'runId'>,
  message: { headline: string; body: string },
): Promise<{ oid: string; url: string }> {
  const { repoWithOwner, branch, onto } = target;
  // The branch named on the refusal's one line (log.failed writes a line break of its text as one; git allows U+2028 in a ref name).
  const shownBranch = terminalLine(branch);
  const reviewed = onto.slice(0, 7);
  // The commit went on the reviewed head, or on another suite's baseline commit on top of it
  // (docs/action.md, "Two suites in one repository"): the words name which.
  const onOther = onto !== found.headSha;
  const other = `${reviewed}, another suite's baseline commit on top of the reviewed head ${found.headSha.slice(0, 7)}`;
  const base = onOther ? other : `the reviewed head ${reviewed}`;
  const kept = `The reviewed results are kept (workflow run ${found.runId} and its results artifact)`;
  const what = e.kind === 'conflict' ? `GitHub said the branch ${shownBranch} moved while the baselines were being committed` : `${gitHubTrouble(e)} while committing the baselines`;
  let history;
  try {
    history = await github.getBranchHistory(repoWithOwner, branch, HISTORY_DEPTH);
  } catch (readError) {
    if (!isGitHubError(readError)) throw readError;
    throw new Refusal(unreadBranchText(what, branch, readError, message.headline, kept));
  }
  const head = history?.[0];
  if (history === null || head === undefined) {
    throw new Refusal(`${what}, and there is no branch ${shownBranch} any more (deleted or renamed), so nothing was written. Push the branch again, then apply the label again. ${kept}.`);
  }
  // Ours: on `onto`, with our message; the head itself, or under a push made since.
  const ours = history.find((c) => c.parent === onto && sameText(c.headline, message.headline) && sameText(c.body, message.body));
  if (ours !== undefined) {
    const since = ours.oid === head.oid ? '' : `, and ${head.oid.slice(0, 7)} was pushed on top of it since`;
    log.info(`accept: ${what}, but the baseline commit ${ours.oid.slice(0, 7)} is on the branch ${shownBranch}${since}: it landed`);
    return { oid: ours.oid, url: `${target.serverUrl.replace(/\/+$/, '')}/${repoWithOwner}/commit/${ours.oid}` };
  }
  if (head.oid === onto) {
    throw new Refusal(`${what}, and the branch ${shownBranch} still points at ${onOther ? other : `${reviewed}, the reviewed head`}, so nothing was written. ${kept}: re-run this job, or apply the label again, to commit them.`);
  }
  // The newest HISTORY_DEPTH commits, none ours, and `onto` not among them: ours may be
  // further down, under the pushes made since, so whether it landed is not known (docs/action.md, "Accept").
  if (history.length >= HISTORY_DEPTH && !history.some((c) => c.oid === onto)) {
    throw new Refusal(
      `${what}, and the branch ${shownBranch} is now at ${head.oid.slice(0, 7)}, more than ${String(HISTORY_DEPTH)} commits past ${base} (only the newest ${String(HISTORY_DEPTH)} are read back), so whether the baseline commit landed under them is unknown. Look at the branch's history (git log ${shownBranch}): if a commit "${message.headline}" on ${reviewed} is there, the baselines are in; if not, nothing was written: wait for the check on the new head, review its comment, then apply the label again. ${kept}.`,
    );
  }
  throw new Refusal(
    e.kind === 'conflict'
      ? `the branch ${shownBranch} moved to ${head.oid.slice(0, 7)} (another push) while the baselines were being committed, so nothing was written. Wait for the check on the new head, review its comment, then apply the label again.`
      : `${what}, and the branch ${shownBranch} has moved to ${head.oid.slice(0, 7)} since ${base} (another push), so nothing was written. Wait for the check on the new head, review its comment, then apply the label again.`,
  );
}

/** The reviewed run's record, the baselines its replies were compared with, and their acceptance as planned. */
interface ReviewedPlan {
  record: RunRecord;
  current: Map<string, Baseline | PersonaBaseline>;
  plan: AcceptPlan;
}

/**
 * The reviewed run's record (its results artifact) and its acceptance, planned as the job that
 * commits it plans it: the record's baselines are the ones its replies were compared with, so two
 * jobs accepting one run plan the same baselines, all but when they were accepted. A record of
 * another suite is refused.
 */
async function planReviewed(github: GitHubApi, ctx: ActionContext, found: Found, suiteDir: string, now: () => Date): Promise<ReviewedPlan> {
  const record = await downloadRecord(github, ctx, found);
  const current = new Map<string, Baseline | PersonaBaseline>();
  for (const f of record.fixtures) if (f.baseline) current.set(f.label, f.baseline);
  for (const p of record.personas) if (p.baseline) current.set(p.label, p.baseline);
  checkSuiteDir(record, suiteDir);
  // Read back as the loader will read it: a baseline its own record contradicts is refused, not committed.
  const plan = await screenAccepted(planAcceptance(record, current, { only: null, acceptedAt: now().toISOString() }), posix.join(suiteDir, 'baselines'));
  return { record, current, plan };
}

/**
 * Whether the head holds the reviewed run's acceptance, as a commit on top whose message reads as
 * this suite's acceptance of the run says it does (movedByAcceptances' `ours`). Anyone who can push
 * can copy a message, so the files decide (docs/action.md, "Accept"): each file of this suite the
 * commits change (`ownFiles`) is the baseline the plan accepts for its label, as serializeBaseline
 * writes it but for when it was accepted (acceptedAt), its line endings and a byte-order mark; and
 * each baseline the plan accepts is among them. null when it holds, else what differs.
 */
export async function acceptanceDiffers(github: GitHubApi, ctx: Pick<ActionContext, 'owner' | 'repo'>, head: string, suiteDir: string, ownFiles: readonly string[], plan: AcceptPlan): Promise<string | null> {
  const planned = new Map(plan.accepted.map((b) => [baselineRepoPath(suiteDir, b.label), b]));
  const shown = (path: string): string => clip(path, 200);
  for (const path of ownFiles) {
    const b = planned.get(path);
    if (b === undefined) return `it changes ${shown(path)}, which accepting the run does not write`;
    const file = await github.getContent(ctx.owner, ctx.repo, path, head);
    let text: string | null = null;
    if (file?.kind === 'file') text = file.text ?? (await github.getBlob(ctx.owner, ctx.repo, file.sha)).toString('utf8');
    const at = text === null ? null : acceptedAtOf(text.replace(/^\uFEFF/, ''));
    // In any of the styles an acceptance writes (filesInStoredStyle): the file's bytes as inStyleOf gives them.
    const expected = at === null ? null : serializeBaseline({ ...b, acceptedAt: at });
    if (text === null || expected === null || !FILE_STYLES.some((style) => inStyleOf(style, expected) === text)) {
      return `${shown(path)} at ${head.slice(0, 7)} is not the baseline of the reply the run recorded for ${shown(b.label)}`;
    }
  }
  const missing = [...planned.keys()].find((path) => !ownFiles.includes(path));
  return missing === undefined ? null : `it does not write ${shown(missing)}, which accepting the run does`;
}

/** A baseline file's acceptedAt, or null when the text is no JSON object with one. */
function acceptedAtOf(text: string): string | null {
  try {
    const at = (JSON.parse(text) as { acceptedAt?: unknown } | null)?.acceptedAt;
    return typeof at === 'string' ? at : null;
  } catch {
    return null;
  }
}

/**
 * Writes the reviewed run's comment as the accept job that committed its baselines in `acceptedSha`
 * would have, when the comment does not show that acceptance: that job could not update it (GitHub
 * failed after the commit; the baselines are in and the job passed), so the comment still asks for
 * the label, and a re-run of the job or the label applied again finds the commit and has nothing
 * else to do (docs/action.md, "Accept"). The results artifact is read again and planned as then:
 * the record's baselines are the ones its replies were compared with, so the accepted, refused and
 * unchanged items are the same. The check on the accepting commit is not dispatched again (the job
 * that committed did, or said why not). A failure (GitHub, an artifact expired since) leaves the
 * comment as it is, with a warning: the baselines are in, and the next check replaces it.
 */
async function showAcceptance(
  github: GitHubApi,
  inputs: Inputs,
  ctx: ActionContext,
  rctx: ReportContext,
  pr: number,
  found: Found,
  pull: { headRef: string; headRepoFullName: string | null },
  acceptedSha: string,
  reviewed: () => Promise<ReviewedPlan>,
): Promise<AcceptSummaryComment> {
  const short = acceptedSha.slice(0, 7);
  try {
    const { record, plan } = await reviewed();
    const repoWithOwner = pull.headRepoFullName ?? `${ctx.owner}/${ctx.repo}`;
    const note =
      inputs.checkWorkflow === null
        ? `Commits made with the workflow token start no workflow, ${noCheckOn(short)}.`
        : `The accept job that made ${short} started the check workflow ${inputs.checkWorkflow} on ${pull.headRef} (its log says whether it could): that run compares ${short} with the new baselines and updates this comment.`;
    const acceptance = { accepted: plan.accepted.map((b) => b.label), refused: plan.refused, skipped: plan.unchanged, commitSha: acceptedSha, commitUrl: `${ctx.serverUrl.replace(/\/+$/, '')}/${repoWithOwner}/commit/${acceptedSha}`, note, commands: null };
    const outcome = await updateReviewedComment(github, ctx, pr, found, acceptanceComment(record, rctx, found, acceptance));
    if (outcome.kind === 'updated') log.info(`accept: the comment did not show the acceptance in ${short} (the job that committed could not update it); it does now`);
    return commentState(outcome);
  } catch (e) {
    if (!isGitHubError(e) && !(e instanceof Refusal)) throw e;
    log.warning(`accept: the comment does not show the acceptance in ${short} and could not be updated: ${isGitHubError(e) ? gitHubTrouble(e) : e.message}; it still shows the reviewed run until the next check replaces it.`);
    return { kind: 'failed' };
  }
}

/**
 * A GitHub failure before the commit, with the step it stopped: what state things are in, and the
 * fix. The step (which may name the suite folder, the dir input) and the branch on the failure's one
 * line (terminalLine: log.failed writes a line break of its text as one).
 */
export function failureBeforeCommit(e: GitHubError, step: string, branch: string, found: Found | null): string {
  const kept = found ? `the reviewed results are kept (workflow run ${found.runId} and its results artifact)` : 'the comment and the results artifact of the check run are as they were';
  const permissions = 'the permissions of the accept workflow in the documentation (contents: write, pull-requests: write, actions: write)';
  const fix =
    e.kind === 'forbidden'
      ? `Give the accept job ${permissions}, then apply the label again.`
      : e.kind === 'not_found'
        ? `GitHub answers 404 for what is gone and for what the job's token cannot see: give the accept job ${permissions}, then re-run this job or apply the label again.`
        : 'Re-run this job, or apply the label again.';
  return `${gitHubTrouble(e)} while ${terminalLine(step)}, before anything was committed: the branch ${terminalLine(branch)} is unchanged and ${kept}. ${fix}`;
}

/** The refusal for a pull request whose head repository (a fork) was deleted: the branch named on the refusal's one line (terminalLine). */
export function deletedHeadRepoText(pr: number, branch: string, runId: number): string {
  return `the head repository of pull request #${pr} was deleted, so no one can push to its branch ${terminalLine(branch)} and nothing was written. The reviewed results are kept (workflow run ${runId} and its results artifact): to keep these replies as baselines, push the pull request's changes to a branch of a repository that exists, open a pull request from it, and accept its check.`;
}

/** The warning for an accept label GitHub did not remove, the label on the line as labelWord shows it. */
export function labelNotRemovedLine(label: string, pr: number, e: unknown): string {
  return `label ${labelWord(label)} not removed from #${pr}: ${gitHubFailure(e, 'pull-requests: write')}, or remove the label by hand`;
}

/**
 * Whether the event is the accept label applied to a pull request: its label (as the repository
 * spells it) and pull request; another label applied to one (otherLabel), warned with the fix, since
 * a maintainer who applied it sees nothing happen; or what the log says when there is nothing to do
 * (another event, another action). The event's label is quoted on the line as JSON, a U+2028 or an
 * escape sequence in it as its escape (shownJson); the accept label as labelWord shows it.
 */
export function acceptTrigger(
  acceptLabel: string,
  ctx: Pick<ActionContext, 'eventName' | 'payload' | 'pull' | 'workflowRef'>,
): { label: string; pull: PullContext } | { skip: string } | { otherLabel: string; pull: PullContext; warning: string; file: string | null } {
  const action = typeof ctx.payload.action === 'string' ? ctx.payload.action : '';
  const labelName = typeof (ctx.payload.label as { name?: unknown } | undefined)?.name === 'string' ? (ctx.payload.label as { name: string }).name : null;
  if (!['pull_request', 'pull_request_target'].includes(ctx.eventName) || action !== 'labeled' || ctx.pull === null) {
    return { skip: `accept: nothing to do for the ${ctx.eventName || 'unknown'} event${action ? ` (${action})` : ''}; accept mode runs when the ${labelWord(acceptLabel)} label is applied to a pull request.` };
  }
  if (labelName === null) return { skip: `accept: the event names no label; nothing to do.` };
  if (!sameLabel(labelName, acceptLabel)) {
    const name = workflowFile(ctx.workflowRef);
    const file = name === null ? null : `.github/workflows/${name}`;
    return { otherLabel: labelName, pull: ctx.pull, warning: otherLabelWords(labelName, acceptLabel, ctx.pull.number, file), file };
  }
  return { label: labelName, pull: ctx.pull };
}

/**
 * Why the accept job did nothing for another label than its step's accept-label: the job's `if:`
 * waits for that label (renamed in one of the two alone), or it has none and runs for every label;
 * the fix, after its "; " (a fix of ours: the job summary gives its words to copy in code, as
 * escapeDetail does), names the workflow file when GITHUB_WORKFLOW_REF does (docs/action.md,
 * "Accept: the label commits the reviewed replies").
 */
export function otherLabelWords(label: string, acceptLabel: string, pr: number, file: string | null): string {
  const shown = shownJson(label);
  return (
    `the job ran for the label ${shown}, applied to pull request #${pr}, but its agent-replay step accepts the ${labelWord(acceptLabel)} label (its accept-label input), so nothing was done: ` +
    `the job's if: waits for another label than the step accepts, or the job has none and runs for every label; ` +
    `give the accept job${file === null ? '' : ` of ${file}`} the if: of the step's label, if: github.event.label.name == '${terminalLine(acceptLabel.replaceAll("'", "''"))}' ` +
    `(to accept with ${shown} instead, set accept-label: ${shown} on the step as well).`
  );
}

/**
 * The pull request read again right before the commit (`again`), against the job's first read of it
 * (`first`): the refusal when it was closed (or merged) since, or its label (`labelName`, as the
 * event spells it; `acceptLabel`, the input, for the words) removed since; null when neither.
 */
export function rereadRefusal(first: Pick<PullWithLabels, 'labels'>, again: Pick<PullWithLabels, 'number' | 'state' | 'labels'>, labelName: string, acceptLabel: string): string | null {
  const pr = again.number;
  if (again.state === 'closed') {
    return `pull request #${pr} was closed while the accept job ran, before the baselines were committed: a commit on its branch would never reach the base branch, so nothing was written. Reopen it and apply the label again, or accept them in a new pull request.`;
  }
  // Only a label seen at the job's first read can have been removed during it: a re-run of the
  // job starts with the label its first attempt removed.
  const labelled = (p: { labels: string[] }): boolean => p.labels.some((l) => sameLabel(l, labelName));
  if (labelled(first) && !labelled(again)) {
    return `the ${labelWord(acceptLabel)} label was removed from pull request #${pr} while the accept job ran, before the baselines were committed, so nothing was written. Apply the label again to accept the replies of the check.`;
  }
  return null;
}

export async function acceptMode(inputs: Inputs, ctx: ActionContext, deps: ActionDeps): Promise<void> {
  const trigger = acceptTrigger(inputs.acceptLabel, ctx);
  if ('skip' in trigger) {
    log.info(trigger.skip);
    return;
  }
  if ('otherLabel' in trigger) {
    // No request: the same words in the log (at the workflow file, when known) and on the summary page.
    log.warning(`accept: ${trigger.warning}`, trigger.file === null ? undefined : { file: trigger.file });
    await writeSummary(redactorOfKnown([inputs.githubToken])(renderAcceptSummary({ kind: 'other-label', pr: trigger.pull.number, reason: trigger.warning }, suiteName(inputs.dir))));
    return;
  }
  const { label: labelName, pull: labelledPull } = trigger;
  if (deps.github === null) throw new UserError('accept mode needs the github-token input');
  const github = deps.github;
  const pr = labelledPull.number;
  const out = publisher(publishSettings(inputs), ctx, deps);
  const marker = out.marker;
  const sender = typeof (ctx.payload.sender as { login?: unknown } | undefined)?.login === 'string' ? (ctx.payload.sender as { login: string }).login : '';
  // The event's sender is a User, a Bot (a GitHub App) or an Organization (webhook payloads, `sender.type`).
  const senderIsBot = (ctx.payload.sender as { type?: unknown } | undefined)?.type === 'Bot';
  const removeLabel = async (): Promise<void> => {
    try {
      await github.removeLabel(ctx.owner, ctx.repo, pr, labelName); // as the repository spells it
    } catch (e) {
      log.warning(labelNotRemovedLine(labelName, pr, e));
    }
  };
  // The job's summary page says what the label did, whatever it was (docs/action.md, "Accept"); no secret in it.
  const summarize = async (s: AcceptSummary): Promise<void> => {
    await writeSummary(redactorOfKnown([inputs.githubToken])(renderAcceptSummary(s, suiteName(inputs.dir))));
  };

  // A fork's pull request on pull_request: GitHub makes the job's token read-only whatever the
  // workflow's permissions say, so no notice could be posted nor the label removed; said in the log
  // and the summary only, before any request (docs/action.md, "Accept: the label commits the reviewed replies").
  if (ctx.eventName === 'pull_request' && labelledPull.isFork) {
    const reason = `this pull request comes from a fork, and the accept job ran on pull_request, whose token GitHub makes read-only for a fork's pull request: it cannot update the comment or remove the label, so nothing was written. Run the accept workflow on pull_request_target (${docsUrl('action.md', 'Accept: the label commits the reviewed replies')}), then remove the label and apply it again.`;
    await summarize({ kind: 'refused', pr, reason });
    log.failed(`baselines not accepted: ${reason}`);
    return;
  }
  core.setOutput('accepted', ''); // replaced when a commit lands
  // Where a failure of GitHub stopped the job, for its message; the commit once it landed.
  let step = 'checking the permission of the user who applied the label';
  let found: Found | null = null;
  let committed: { oid: string; url: string } | null = null;
  try {
    // A label applied by an App (a labeller, an automation) was applied without anyone reviewing the
    // comment, whatever the App may write (docs/action.md, "Accept: the label commits the reviewed replies").
    if (senderIsBot) {
      throw new Refusal(`the ${labelWord(inputs.acceptLabel)} label was applied by ${sender || 'an unknown bot'}, a bot: accepting baselines needs a person with write, maintain or admin permission, who reviewed the comment, to apply it. A maintainer can apply the label instead.`);
    }
    const permission = sender ? await github.getCollaboratorPermission(ctx.owner, ctx.repo, sender) : 'none';
    if (!ALLOWED_PERMISSIONS.has(permission)) {
      throw new Refusal(`the ${labelWord(inputs.acceptLabel)} label was applied by ${sender || 'an unknown user'}, who has ${permission} permission; accepting baselines needs write, maintain or admin. A maintainer can apply the label instead.`);
    }
    step = `reading the comments of pull request #${pr}`;
    found = await findReviewedRun(github, ctx, pr, marker);
    step = `reading who last edited the comment on pull request #${pr}`;
    await checkLastEditor(github, found);
    step = `reading pull request #${pr}`;
    const pull = await github.getPull(ctx.owner, ctx.repo, pr);
    // A closed (or merged) pull request's branch no longer reaches the base branch: a commit there would be lost (docs/action.md, "Accept").
    if (pull.state === 'closed') {
      throw new Refusal(`pull request #${pr} is closed, so baselines committed on its branch would never reach the base branch; nothing was written. Reopen it and apply the label again, or accept them in a new pull request.`);
    }
    // A deleted fork: its branch takes no push from anyone, so there are no commands to give either (docs/action.md, "Accept").
    if (pull.headRepoFullName === null) {
      throw new Refusal(deletedHeadRepoText(pr, pull.headRef, found.runId));
    }
    // The head is the commit that accepted this very run (a second label event, a re-run of the
    // job): there is nothing left to do, and a refusal would contradict the comment (docs/action.md, "Accept").
    const runId = String(found.runId);
    const suiteDir = repoSuiteDir(inputs.dir);
    const inComment = found;
    // Downloaded once, by whichever step needs the reviewed run's plan first.
    let reviewed: Promise<ReviewedPlan> | null = null;
    const reviewedPlan = (): Promise<ReviewedPlan> => (reviewed ??= planReviewed(github, ctx, inComment, suiteDir, deps.wallClock ?? (() => new Date())));
    const already = async (acceptedSha: string): Promise<void> => {
      const where = acceptedSha === pull.headSha ? ", the pull request's head" : `, under the pull request's head ${pull.headSha.slice(0, 7)} (baseline commits of other suites on top of it)`;
      log.info(`accept: the replies of workflow run ${runId} were already accepted in ${acceptedSha.slice(0, 7)}${where}; nothing to do.`);
      // The job that committed could not update the comment: it still asks for the label, so it is written now.
      const comment = inComment.acceptedSha === acceptedSha ? undefined : await showAcceptance(github, inputs, ctx, reviewedContext(out, ctx, inComment), pr, inComment, pull, acceptedSha, reviewedPlan);
      await removeLabel();
      await summarize({ kind: 'already', pr, runId, acceptedSha, headSha: pull.headSha, ...(comment === undefined ? {} : { comment }) });
    };
    if (found.acceptedSha !== null && pull.headSha === found.acceptedSha) {
      await already(found.acceptedSha);
      return;
    }
    // The commit goes on the reviewed head, or on the head now when only another suite's accept
    // step committed on it since; when this suite's own step did (an earlier attempt of this job,
    // before or under another suite's), there is nothing left to do (docs/action.md, "Two suites in
    // one repository").
    let onto = found.headSha;
    let moved: string | null = null;
    if (pull.headSha !== found.headSha && !pull.isFork) {
      step = `comparing the reviewed head ${found.headSha.slice(0, 7)} with the head of pull request #${pr}`;
      const move = await movedByAcceptances(github, ctx, found, pull.headSha, suiteDir, suiteName(inputs.dir));
      moved = move.why;
      if (move.ours !== null) {
        step = `reading the baselines of ${suiteDir} at the head ${pull.headSha.slice(0, 7)} of pull request #${pr}`;
        const differs = await acceptanceDiffers(github, ctx, pull.headSha, suiteDir, move.ownFiles, (await reviewedPlan()).plan);
        if (differs !== null) {
          throw new Refusal(
            `the pull request's head has moved since the run the comment shows (reviewed ${found.headSha.slice(0, 7)}, head is now ${pull.headSha.slice(0, 7)}): ${move.ours.slice(0, 7)} reads as this suite's acceptance of workflow run ${runId}, but ${differs}. Wait for the check to run on the new head, review the updated comment, then apply the label again.`,
          );
        }
        await already(move.ours);
        return;
      }
      if (move.byOthers) {
        log.info(movedByOthersLine(found.headSha, pull.headSha, suiteDir));
        onto = pull.headSha;
      }
    }
    if (pull.headSha !== onto) {
      throw new Refusal(
        `the pull request's head has moved since the run the comment shows (reviewed ${found.headSha.slice(0, 7)}, head is now ${pull.headSha.slice(0, 7)})${moved === null ? '' : `: ${moved}`}. Wait for the check to run on the new head, review the updated comment, then apply the label again.`,
      );
    }
    step = `reading when the ${labelWord(inputs.acceptLabel)} label was applied to pull request #${pr}`;
    const late = await labelRefusal(github, ctx, pr, found, labelName, sender);
    if (late !== null) throw new Refusal(late);
    step = `downloading the results artifact of workflow run ${found.runId}`;
    const reviewedRun = found;
    // The run compared against the baselines at the reviewed head, and the head has not moved:
    // the record's baselines are the ones stored on the branch now.
    const { record, current, plan } = await reviewedPlan();
    for (const b of plan.accepted) baselineRepoPath(suiteDir, b.label); // refuses a label that would leave the folder, before anything else
    core.setOutput('refused', plan.refused.map((r) => r.label).join(','));
    const rctx = reviewedContext(out, ctx, reviewedRun);
    const acceptanceView = (commitSha: string | null, commitUrl: string | null, note: string | null, commands: string | null = null) => ({
      accepted: plan.accepted.map((b) => b.label),
      refused: plan.refused,
      skipped: plan.unchanged,
      commitSha,
      commitUrl,
      note,
      commands,
    });
    const shown = (commitSha: string | null, commitUrl: string | null, note: string | null, commands: string | null = null): string =>
      acceptanceComment(record, rctx, reviewedRun, acceptanceView(commitSha, commitUrl, note, commands));
    const acceptedRun = { pr, branch: pull.headRef, reviewedSha: reviewedRun.headSha, runId: String(reviewedRun.runId) };

    if (plan.accepted.length === 0) {
      log.info(`accept: nothing to accept (${plan.refused.length} refused, ${plan.unchanged.length} unchanged)`);
      step = `updating the comment on pull request #${pr}`;
      const comment = await updateReviewedComment(github, ctx, pr, reviewedRun, shown(null, null, 'Nothing to accept: no commit was made.'));
      await removeLabel();
      await summarize({ kind: 'acceptance', run: acceptedRun, acceptance: acceptanceView(null, null, null), comment: commentState(comment) });
      return;
    }

    // Each file in the style of the one it replaces as stored at the head, for the commit and for a
    // fork's own commit of them alike (docs/fixtures.md, "Line endings and byte-order marks").
    step = `reading the stored baselines of ${posix.join(suiteDir, 'baselines')} at ${onto.slice(0, 7)}`;
    const files = await filesInStoredStyle(github, ctx, onto, suiteDir, plan.accepted, current);

    if (pull.isFork) {
      const staged = await stageBaselineFiles(files);
      // A re-run of the job cannot upload a name an earlier attempt of the run used: each attempt has its own, as the results artifact does (docs/security.md, "The accept flow").
      const suite = suiteName(inputs.dir);
      const artifactName = `agent-replay-baselines-${suite === null ? '' : `${suiteSlug(suite)}-`}${reviewedRun.headSha}${ctx.runAttempt > 1 ? `-attempt-${ctx.runAttempt}` : ''}`;
      // The folder only feeds the upload: a self-hosted runner keeps its temporary folder between jobs.
      const uploaded = await deps.artifacts.upload(artifactName, staged.paths, staged.root).finally(() => rm(staged.root, { recursive: true, force: true }));
      const download = uploaded.kind === 'uploaded' && ctx.runId ? { runId: ctx.runId, repo: `${ctx.owner}/${ctx.repo}`, artifactName } : null;
      const fork = { files, headRef: pull.headRef, baselinesDir: posix.join(suiteDir, 'baselines'), download };
      let commands = forkCommands(fork);
      // Files too long to show inline, and no artifact of them: the commands accept the reviewed run's results artifact with the CLI (docs/security.md, "The accept flow").
      const viaResults = download === null && commands.length > MAX_COMMANDS_CHARS;
      if (viaResults) commands = forkCommands({ ...fork, results: { runId: String(reviewedRun.runId), repo: `${ctx.owner}/${ctx.repo}`, artifactName: reviewedRun.artifactName, suiteDir } });
      const how = download
        ? `The baseline files are in the artifact ${artifactName} of this workflow run. To accept them, run these commands in a clone of the fork (the gh CLI, logged in, downloads the artifact):`
        : viaResults
          ? 'To accept them, run these commands in a clone of the fork: they download the results artifact of the reviewed run and accept it with agent-replay accept.'
          : 'To accept them, run these commands in a clone of the fork (they hold the baseline files):';
      const note = `Not committed: this pull request comes from a fork, which the workflow cannot push to, so nothing was pushed. ${how}`;
      step = `updating the comment on pull request #${pr}`;
      const comment = await updateReviewedComment(github, ctx, pr, reviewedRun, shown(null, null, note, commands));
      await removeLabel();
      log.warning(`accept: fork pull request: baselines not committed; ${uploaded.kind === 'uploaded' ? `artifact ${artifactName} uploaded` : uploaded.reason}; the ${comment.kind === 'updated' ? 'comment' : 'job summary'} has the commands to apply them`);
      await summarize({ kind: 'acceptance', run: acceptedRun, acceptance: acceptanceView(null, null, note, commands), comment: commentState(comment) });
      return;
    }

    // Read again right before the commit: closed (or merged) while the artifact was downloaded and
    // screened, its branch would take a commit that never reaches the base branch; the label
    // removed in that time takes the acceptance back. A push in that time needs no read: the
    // commit's expectedHeadOid refuses it (docs/action.md, "Accept").
    step = `reading pull request #${pr} again before the commit`;
    const changed = rereadRefusal(pull, await github.getPull(ctx.owner, ctx.repo, pr), labelName, inputs.acceptLabel);
    if (changed !== null) throw new Refusal(changed);
    step = 'committing the baselines';
    const repoWithOwner = pull.headRepoFullName ?? `${ctx.owner}/${ctx.repo}`;
    const message = commitMessage(plan, reviewedRun, suiteName(inputs.dir));
    try {
      committed = await github.createCommitOnBranch({ repoWithOwner, branch: pull.headRef, expectedHeadOid: onto, message, additions: files.map((f) => ({ path: f.path, contents: styledText(f) })) });
    } catch (e) {
      if (!isGitHubError(e)) throw e;
      const refused = e.kind === 'conflict' || unanswered(e) ? null : commitRefusal(e, pull.headRef);
      if (refused !== null) throw new Refusal(refused);
      if (e.kind !== 'conflict' && !unanswered(e)) throw e;
      committed = await afterCommitFailure(github, e, { repoWithOwner, branch: pull.headRef, serverUrl: ctx.serverUrl, onto }, reviewedRun, message);
    }
    const commit = committed;
    log.info(`accept: committed ${commit.oid} with ${files.length} baselines`);
    core.setOutput('accepted', plan.accepted.map((b) => b.label).join(','));
    core.setOutput('commit-sha', commit.oid);
    await removeLabel();
    const note = await dispatchCheck(github, inputs, ctx, pull.headRef, commit.oid);
    // The baselines are in: a comment GitHub does not take is said, and the job passes (the next check replaces the comment).
    let comment: AcceptSummaryComment;
    try {
      comment = commentState(await updateReviewedComment(github, ctx, pr, reviewedRun, shown(commit.oid, commit.url, note)));
    } catch (e) {
      if (!isGitHubError(e)) throw e;
      comment = { kind: 'failed' };
      log.warning(`accept: the baselines were committed in ${commit.oid.slice(0, 7)}, but the comment could not be updated: ${gitHubTrouble(e)}; it still shows the reviewed run until the next check replaces it.`);
    }
    await summarize({ kind: 'acceptance', run: acceptedRun, acceptance: acceptanceView(commit.oid, commit.url, note), comment });
  } catch (caught) {
    let e = caught;
    // GitHub failed us, or answered no (a 403, a 404, ...), before the commit: said with the step,
    // the state and the fix, as a refusal is, never as the request line (docs/action.md, "Accept").
    if (committed === null && isGitHubError(e)) e = new Refusal(failureBeforeCommit(e, step, labelledPull.headRef, found));
    if (!(e instanceof Refusal)) {
      await summarize({ kind: 'stopped', pr, committedSha: committed?.oid ?? null });
      throw e;
    }
    log.warning(`accept: refused: ${e.message}`);
    await addNotice(github, ctx, pr, marker, refusalNotice(e.message), e.dropMetadata);
    await removeLabel();
    await summarize({ kind: 'refused', pr, reason: e.message });
    log.failed(`baselines not accepted: ${e.message}`);
  }
}
