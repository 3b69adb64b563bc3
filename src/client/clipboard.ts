// Copies a text to the clipboard and says so in a toast, or says that it could not.
import { toast } from "./toast.ts";

export async function copyWithToast(text: string, words: { copied: string; failed: string }): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: "Copied!", description: words.copied });
  } catch {
    toast({ title: "Error", description: words.failed, variant: "destructive" });
  }
}
