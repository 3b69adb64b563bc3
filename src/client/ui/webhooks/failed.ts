// A failed webhook call, said in a toast with the server's words.
import { errorMessage } from "../../api.ts";
import { toast } from "../../toast.ts";

export const failed = (error: unknown) =>
  toast({ title: "Error", description: errorMessage(error), variant: "destructive" });
