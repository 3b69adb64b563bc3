// The device a person's User-Agent names, for device rules: bowser's reading, memoised per User-Agent string
// like the crawler classification (src/go/classify.ts). Only links with a device rule ask.
import Bowser from "bowser";
import type { Device } from "../rules/model.ts";
import { boundedMemo } from "../bounded-memo.ts";

/** Distinct User-Agents remembered before the memo starts again: a few thousand cover nearly all traffic. */
const MEMO_LIMIT = 10_000;

/** iPhone and iPad are ios, Android phones and tablets android; everything else (desktops, TVs, unknown) desktop. */
export function deviceOf(userAgent: string): Device {
  // bowser throws on an empty User-Agent.
  if (userAgent === "") return "desktop";
  const os = Bowser.parse(userAgent).os.name;
  if (os === "iOS" || os === "iPadOS") return "ios";
  if (os === "Android") return "android";
  return "desktop";
}

export const createDeviceClassifier = (): ((userAgent: string) => Device) => boundedMemo(MEMO_LIMIT, deviceOf);
