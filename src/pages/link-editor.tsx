// /admin/link/new and /admin/link/edit/:linkSlug
import type { LinkFormProps } from "../../islands/LinkForm.tsx";
import { LinkForm } from "./islands.ts";

const back = "rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50";

export function LinkEditorPage(props: LinkFormProps) {
  return (
    <div>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{props.mode === "create" ? "Create New Link" : "Edit Link"}</h1>
        <a href="/admin" className={back}>
          ← Back to dashboard
        </a>
      </div>
      <LinkForm {...props} />
    </div>
  );
}

export function LinkNotFoundPage() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">Link Not Found</h1>
      <p className="mt-2 text-gray-600">The link you're trying to edit doesn't exist or you don't have permission to access it.</p>
      <a href="/admin" className={`mt-6 inline-block ${back}`}>
        ← Back to dashboard
      </a>
    </section>
  );
}
