// What a doc page adds when JavaScript runs: copy buttons on code blocks, "Copy page as Markdown",
// and an on-page contents list that is open whenever the wide layout shows it in its own column.
const WIDE = "(min-width: 76rem)";

let liveRegion: HTMLElement | undefined;

/** Says what happened to screen-reader users too (a polite live region, created once). */
function announce(message: string): void {
  if (!liveRegion) {
    liveRegion = document.createElement("p");
    liveRegion.className = "visually-hidden";
    liveRegion.setAttribute("role", "status");
    document.body.append(liveRegion);
  }
  liveRegion.textContent = message;
}

function confirmOn(button: HTMLButtonElement, copied: boolean): void {
  const label = button.textContent;
  button.textContent = copied ? "Copied" : "Copy failed";
  announce(copied ? "Copied to the clipboard." : "Could not copy to the clipboard.");
  setTimeout(() => {
    button.textContent = label;
  }, 2000);
}

async function copyCode(button: HTMLButtonElement, pre: HTMLPreElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(pre.innerText.replace(/\n$/, ""));
    confirmOn(button, true);
  } catch {
    confirmOn(button, false);
  }
}

async function copyPage(button: HTMLButtonElement, url: string): Promise<void> {
  const text = fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.text();
  });
  try {
    // A ClipboardItem takes the pending text, so the click's permission to write survives the fetch.
    if (typeof ClipboardItem === "function") {
      const blob = text.then((markdown) => new Blob([markdown], { type: "text/plain" }));
      await navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
    } else {
      await navigator.clipboard.writeText(await text);
    }
    confirmOn(button, true);
  } catch {
    confirmOn(button, false);
  }
}

// The clipboard exists only in a secure context (HTTPS or this machine); elsewhere no copy button is offered.
if (!navigator.clipboard) {
  for (const button of document.querySelectorAll("[data-copy-page]")) button.remove();
} else {
  for (const pre of document.querySelectorAll<HTMLPreElement>(".prose pre")) {
    const block = document.createElement("div");
    block.className = "code-block";
    pre.replaceWith(block);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy-code";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code");
    button.addEventListener("click", () => void copyCode(button, pre));
    block.append(pre, button);
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>("[data-copy-page]")) {
    const url = button.dataset.copyPage;
    if (!url) continue;
    button.addEventListener("click", () => void copyPage(button, url));
  }
}

const toc = document.querySelector<HTMLDetailsElement>("[data-toc]");
if (toc) {
  const wide = matchMedia(WIDE);
  const sync = () => {
    toc.open = wide.matches;
  };
  sync();
  wide.addEventListener("change", sync);
}
