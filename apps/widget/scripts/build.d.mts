// Types of build.mjs for the tests that call it.
export declare const GZIP_BUDGET_BYTES: number;
export declare function buildWidget(options?: {
  write?: boolean;
}): Promise<{ text: string; bytes: number; gzipBytes: number }>;
