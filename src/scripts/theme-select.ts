// The theme control: "System" follows the operating system (no stored choice); "Light" and "Dark"
// are remembered in localStorage and applied before paint by the head script (src/lib/head-script.ts).
import { THEME_STORAGE_KEY } from "../lib/head-script.ts";

type Theme = "auto" | "light" | "dark";

function parseTheme(value: unknown): Theme {
  return value === "light" || value === "dark" ? value : "auto";
}

function storedTheme(): Theme {
  try {
    return parseTheme(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return "auto";
  }
}

function applyTheme(theme: Theme): void {
  if (theme === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    if (theme === "auto") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage refused (private mode, a policy): the choice holds for this page only.
  }
}

for (const control of document.querySelectorAll<HTMLElement>("[data-theme-select]")) {
  const select = control.querySelector("select");
  if (!select) continue;
  select.value = storedTheme();
  select.addEventListener("change", () => applyTheme(parseTheme(select.value)));
}
