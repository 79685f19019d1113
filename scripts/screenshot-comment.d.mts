export declare function withoutDbusNoise(stderr: string): string;
