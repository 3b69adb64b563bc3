// Column shapes every table file uses. Re-exported by ../schema.ts.
import { customType, timestamp } from "drizzle-orm/pg-core";

export const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
export const createdAt = () => ms("created_at").notNull().defaultNow();
export const updatedAt = () => ms("updated_at").notNull().defaultNow();

/** bytea as Uint8Array. Drivers hand back a Buffer (a Uint8Array), or with type parsing off the `\x…` hex text. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | string }>({
  dataType() {
    return "bytea";
  },
  toDriver(value) {
    return value;
  },
  fromDriver(value) {
    if (typeof value === "string")
      return new Uint8Array(Buffer.from(value.startsWith("\\x") ? value.slice(2) : value, "hex"));
    return value;
  },
});
