// The one script a page with islands loads: it hydrates each island present, loading only that island's chunk.
import { createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { islandLoaders } from "../build/island-registry.ts";

for (const element of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const load = islandLoaders[element.dataset.island ?? ""];
  if (!load) continue;
  const props = JSON.parse(element.dataset.props ?? "{}");
  void load().then((module) => {
    hydrateRoot(element, createElement(module.default, props));
    // Said on the root, which hydration leaves alone: the browser tests wait for it (tests/e2e/helpers.ts).
    element.dataset.hydrated = "";
  });
}
