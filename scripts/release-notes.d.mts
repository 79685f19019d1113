export declare function releaseNotes(changelog: string, version: string): string | null;
