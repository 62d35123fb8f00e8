import { getContent } from "../content/load-content.ts";
import { withSiteUrls } from "../content/site-placeholders.ts";
import type { BuildContext } from "./outputs/artifact.ts";

interface InjectedBuildContext {
  contentRoot: string;
  siteUrl: string;
  docsUrl: string;
  builtAt: string;
}

// Set by `vite.define` (scripts/build.ts, or astro.config.mjs for `astro dev`): Vite bundles the
// pages separately from the build script, so the context travels as a compile-time constant.
declare const __BUILD_CONTEXT__: InjectedBuildContext;

/** The content and public URLs for the page being built. */
export function pageContext(): BuildContext {
  const injected = __BUILD_CONTEXT__;
  return {
    content: withSiteUrls(getContent(injected.contentRoot), injected),
    siteUrl: injected.siteUrl,
    docsUrl: injected.docsUrl,
    builtAt: injected.builtAt,
  };
}
