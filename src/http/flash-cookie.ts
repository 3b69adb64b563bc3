// What a flash toast is: the server carries one in the flash cookie (src/http/flash.ts), the browser raises them
// (src/client/toast.ts); both import it from here, so http/ never reaches into the browser's code.
export type Toast = { title: string; description?: string; variant?: "default" | "destructive" };

export const FLASH_COOKIE = "lp_flash";
