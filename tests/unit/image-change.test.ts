// The one reading of a link input's image fields (src/links/model.ts parseImageChange), and the editor's form
// fields for each choice read back as that same choice.
import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/http/errors.ts";
import {
  imageChangeFields,
  LinkInput,
  parseImageChange,
  type CurrentImage,
  type ImageChange,
  type ImageInput,
} from "../../src/links/model.ts";

const file = new File([new Uint8Array([1, 2, 3])], "cover.png", { type: "image/png" });
const current: CurrentImage = { imageUrl: "/uploads/abc.jpg", focal: { x: 0.2, y: 0.7 } };
const centre = { x: 0.5, y: 0.5 };
/** The image fields as the API parses them from a form. */
const imageFields = LinkInput.pick({
  imageUrl: true,
  imageSource: true,
  imageImportUrl: true,
  focalX: true,
  focalY: true,
});
const read = (fields: Record<string, string>): ImageInput => imageFields.parse(fields);

describe("parseImageChange on a create", () => {
  test("no image fields: no image, crops centred", () => {
    expect(parseImageChange(read({}), null, null)).toEqual({ kind: "keep", focal: centre });
    expect(parseImageChange(read({ imageUrl: "", focalX: "0.3" }), null, null)).toEqual({
      kind: "keep",
      focal: { x: 0.3, y: 0.5 },
    });
  });
  test("a file is an upload cut around the focal point given, else the centre", () => {
    expect(parseImageChange(read({}), file, null)).toEqual({ kind: "upload", file, focal: centre });
    expect(parseImageChange(read({ focalX: "0.1", focalY: "0.9" }), file, null)).toEqual({
      kind: "upload",
      file,
      focal: { x: 0.1, y: 0.9 },
    });
  });
  test("an import address is an import; an image address is shown as it is", () => {
    expect(parseImageChange(read({ imageImportUrl: "https://example.com/a.png" }), null, null)).toEqual({
      kind: "import",
      url: "https://example.com/a.png",
      focal: centre,
    });
    expect(parseImageChange(read({ imageUrl: "https://cdn.example.com/a.png" }), null, null)).toEqual({
      kind: "external",
      url: "https://cdn.example.com/a.png",
      source: "upload",
      focal: centre,
    });
    expect(
      parseImageChange(read({ imageUrl: "https://cdn.example.com/a.png", imageSource: "ai" }), null, null),
    ).toMatchObject({ kind: "external", source: "ai" });
  });
  test("a file wins over an image address, which is then not looked at", () => {
    expect(parseImageChange(read({ imageUrl: "not a url" }), file, null)).toMatchObject({ kind: "upload" });
  });
  test("a file and an import address together are a 400 naming imageImportUrl", () => {
    let refused: unknown;
    try {
      parseImageChange(read({ imageImportUrl: "https://example.com/a.png" }), file, null);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      status: 400,
      field: "imageImportUrl",
      message: "imageImportUrl: Upload an image or import one from an address, not both",
    });
  });
});

describe("parseImageChange on an update", () => {
  test("no imageUrl field, or the current one, keeps the image and its focal point", () => {
    expect(parseImageChange(read({}), null, current)).toEqual({ kind: "keep", focal: current!.focal });
    expect(parseImageChange(read({ imageUrl: "/uploads/abc.jpg" }), null, current)).toEqual({
      kind: "keep",
      focal: current!.focal,
    });
    expect(parseImageChange(read({ focalX: "0.2", focalY: "0.7" }), null, current)).toEqual({
      kind: "keep",
      focal: current!.focal,
    });
  });
  test("a kept image with a moved focal point is re-cut; one coordinate given keeps the other", () => {
    expect(
      parseImageChange(read({ imageUrl: "/uploads/abc.jpg", focalX: "0.9", focalY: "0.1" }), null, current),
    ).toEqual({ kind: "refocus", focal: { x: 0.9, y: 0.1 } });
    expect(parseImageChange(read({ focalY: "0" }), null, current)).toEqual({
      kind: "refocus",
      focal: { x: 0.2, y: 0 },
    });
  });
  test('an empty or "null" imageUrl removes the image, keeping the focal point', () => {
    expect(parseImageChange(read({ imageUrl: "" }), null, current)).toEqual({ kind: "remove", focal: current!.focal });
    expect(parseImageChange(read({ imageUrl: "null" }), null, current)).toEqual({
      kind: "remove",
      focal: current!.focal,
    });
  });
  test("with no image today, an empty imageUrl keeps that", () => {
    expect(parseImageChange(read({ imageUrl: "" }), null, { imageUrl: null, focal: centre })).toEqual({
      kind: "keep",
      focal: centre,
    });
  });
  test("another address shows that image; a new file or import is cut around the centre unless told", () => {
    expect(parseImageChange(read({ imageUrl: "https://cdn.example.com/b.png" }), null, current)).toEqual({
      kind: "external",
      url: "https://cdn.example.com/b.png",
      source: "upload",
      focal: current!.focal,
    });
    expect(parseImageChange(read({ imageUrl: "/uploads/abc.jpg" }), file, current)).toEqual({
      kind: "upload",
      file,
      focal: centre,
    });
    expect(
      parseImageChange(read({ imageImportUrl: "https://example.com/a.png", focalX: "0.4" }), null, current),
    ).toEqual({ kind: "import", url: "https://example.com/a.png", focal: { x: 0.4, y: 0.5 } });
  });
});

describe("the editor's form fields read back as the choice it made", () => {
  const choices: ImageChange<File>[] = [
    { kind: "keep", focal: current!.focal },
    { kind: "refocus", focal: { x: 0.8, y: 0.25 } },
    { kind: "upload", file, focal: { x: 0.5, y: 0.5 } },
    { kind: "import", url: "https://example.com/a.png", focal: { x: 0.5, y: 0.5 } },
    { kind: "external", url: "https://cdn.example.com/b.png", source: "ai", focal: current!.focal },
    { kind: "remove", focal: current!.focal },
  ];
  for (const change of choices) {
    test(change.kind, () => {
      const fields = imageChangeFields(change, current!.imageUrl);
      expect(parseImageChange(read(fields), change.kind === "upload" ? change.file : null, current)).toEqual(change);
    });
  }
  test("keeping no image on a create sends none", () => {
    expect(imageChangeFields({ kind: "keep", focal: centre }, null)).toEqual({
      imageUrl: "",
      imageSource: "",
      focalX: "0.5",
      focalY: "0.5",
    });
  });
});
