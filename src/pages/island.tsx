// Islands on the server: a component rendered to HTML inside a marker carrying its name and JSON props, which
// islands/client.ts finds and hydrates with that island's own bundle. The page records which islands it used,
// so a page without any sends no script.
import type { ComponentType } from "react";

let used: Set<string> | null = null;

/** Runs a (synchronous) render and returns the names of the islands it placed. */
export function collectIslands(render: () => string): { html: string; islands: Set<string> } {
  const previous = used;
  used = new Set();
  try {
    const html = render();
    return { html, islands: used };
  } finally {
    used = previous;
  }
}

/** Wraps a component from islands/ so that the server marks it for hydration. `name` is its file name. */
export function island<P extends object>(name: string, Component: ComponentType<P>): ComponentType<P> {
  function Island(props: P) {
    used?.add(name);
    return (
      <div data-island={name} data-props={JSON.stringify(props)} className="contents">
        <Component {...props} />
      </div>
    );
  }
  Island.displayName = `Island(${name})`;
  return Island;
}
