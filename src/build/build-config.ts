/** What one build makes: the content it reads, where it writes, and the public URLs it bakes in (api/config.ts reads them from the environment). */
export interface BuildConfig {
  root: string;
  contentRoot: string;
  outDir: string;
  siteUrl: string;
  docsUrl: string;
  apiOrigin: string;
}
