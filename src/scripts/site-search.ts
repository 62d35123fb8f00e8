// Opens Pagefind's search dialog (its component UI), loading the UI the first time it is asked for:
// by the button, Ctrl/Cmd+K, or "/" outside a text field (the shortcuts Starlight uses).
const BUNDLE = "/pagefind/";

interface PagefindModal extends HTMLElement {
  open(): void;
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
    customElements.whenDefined("pagefind-modal").then(() => {
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
