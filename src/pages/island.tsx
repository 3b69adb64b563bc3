// Islands on the server: a component rendered to HTML inside a marker carrying its name and JSON props, which
// islands/client.ts finds and hydrates with that island's own bundle. The page records which islands it used,
// so a page without any sends no script.
import { createContext, useContext, type ComponentType, type ReactElement } from "react";
import { renderToString } from "react-dom/server";

/** The names of the islands placed so far, given down the tree of the page being rendered. */
const IslandsUsed = createContext<Set<string> | null>(null);

/** Renders `page` and returns the names of the islands it placed. */
export function collectIslands(page: ReactElement): { html: string; islands: Set<string> } {
  const islands = new Set<string>();
  const html = renderToString(<IslandsUsed.Provider value={islands}>{page}</IslandsUsed.Provider>);
  return { html, islands };
}

/** Wraps a component from islands/ so that the server marks it for hydration. `name` is its file name. */
export function island<P extends object>(name: string, Component: ComponentType<P>): ComponentType<P> {
  function Island(props: P) {
    useContext(IslandsUsed)?.add(name);
    return (
      <div data-island={name} data-props={JSON.stringify(props)} className="contents">
        <Component {...props} />
      </div>
    );
  }
  Island.displayName = `Island(${name})`;
  return Island;
}
