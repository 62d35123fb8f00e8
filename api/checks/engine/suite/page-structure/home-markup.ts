import type { CheckContext } from "../../check-types.ts";
import { loadHome } from "../../documents/site.ts";
import { isHtmlResponse, isSuccess } from "../../parse/media-type.ts";

/** The homepage's markup when it is an HTML page; null otherwise (http.home-200 reports why). */
export async function homeMarkup(context: CheckContext): Promise<string | null> {
  const { response } = await loadHome(context);
  return isSuccess(response) && isHtmlResponse(response) ? response.text : null;
}

export const NOT_A_PAGE = "the homepage is not an HTML page (see http.home-200)";
