// Opens Pagefind's search dialog (its component UI), loading the UI the first time it is asked for:
// by the button, Ctrl/Cmd+K, or "/" outside a text field (the shortcuts Starlight uses).
import { queryWasFound } from "../lib/search-relevance.ts";

const BUNDLE = "/pagefind/";

interface PagefindModal extends HTMLElement {
  open(): void;
}

/** The parts of Pagefind's search API (pagefind.js, pinned at 1.5.2) this page relies on. */
interface SearchResponse {
  results: { data(): Promise<{ content: string; locations: number[]; meta: { title?: string } }> }[];
  unfilteredResultCount: number;
}
interface PagefindSearch {
  search(term: string | null, options?: object): Promise<SearchResponse | null>;
}
/** The component UI's instance, which loads pagefind.js into `__pagefind__` and searches through it. */
interface ComponentInstance {
  triggerLoad(): Promise<void>;
  __pagefind__: PagefindSearch | null;
}
interface PagefindComponents {
  getInstanceManager(): { getInstance(name: string): ComponentInstance };
}

/**
 * Makes the dialog say "No results" when a query's words are not in the docs: Pagefind would list the
 * pages that contain some one-letter stub of a word it cannot find (src/lib/search-relevance.ts). The
 * words matched on the first result decide, so a search loads no more than it already did.
 */
async function answerOnlyWhatWasFound(): Promise<void> {
  const components = (window as { PagefindComponents?: PagefindComponents }).PagefindComponents;
  const instance = components?.getInstanceManager().getInstance("default");
  await instance?.triggerLoad();
  const pagefind = instance?.__pagefind__;
  if (!pagefind) return;
  const search = pagefind.search.bind(pagefind);
  pagefind.search = async (term, options) => {
    const response = await search(term, options);
    const first = response?.results[0];
    if (!response || !term || !first) return response;
    const { content, locations, meta } = await first.data();
    const words = content.split(/[\r\n\s]+/g);
    const matched = [...locations.map((location) => words[location] ?? ""), meta.title ?? ""];
    return queryWasFound(term, matched) ? response : { ...response, results: [], unfilteredResultCount: 0 };
  };
}

let modal: Promise<PagefindModal> | undefined;

function loadModal(): Promise<PagefindModal> {
  modal ??= new Promise((resolve, reject) => {
    const style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = `${BUNDLE}pagefind-component-ui.css`;
    document.head.append(style);
    const script = document.createElement("script");
    script.src = `${BUNDLE}pagefind-component-ui.js`;
    script.onerror = () => reject(new Error("The search could not be loaded."));
    document.head.append(script);
    customElements
      .whenDefined("pagefind-modal")
      .then(answerOnlyWhatWasFound)
      .then(() => {
        const element = document.createElement("pagefind-modal") as PagefindModal;
        document.body.append(element);
        // The element builds its dialog when connected; open it on the next frame.
        requestAnimationFrame(() => resolve(element));
      }, reject);
  });
  return modal;
}

async function openSearch(button: HTMLButtonElement): Promise<void> {
  const element = await loadModal();
  element.open();
  button.setAttribute("aria-expanded", "true");
  element.querySelector("dialog")?.addEventListener(
    "close",
    () => {
      button.setAttribute("aria-expanded", "false");
      button.focus();
    },
    { once: true },
  );
}

const button = document.querySelector<HTMLButtonElement>("[data-site-search]");
if (button) {
  button.setAttribute("aria-expanded", "false");
  button.addEventListener("click", () => void openSearch(button));
  document.addEventListener("keydown", (event) => {
    const typing =
      event.target instanceof HTMLElement && event.target.closest("input, textarea, select, [contenteditable]");
    const shortcut = (event.key === "k" && (event.metaKey || event.ctrlKey)) || (event.key === "/" && !typing);
    if (!shortcut || document.querySelector("dialog[open]")) return;
    event.preventDefault();
    void openSearch(button);
  });
}
