/**
 * The books the client and target tests play: read and checked, and every test and example book.
 * @module
 */

import { checkBook } from "../../lang/chobo/check.ts";
import type { Book } from "../../lang/chobo/model.ts";
import { bookPaths } from "../../verify/chobo/books.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A book read and checked; a book with errors is a broken test. */
export function loadBook(path: string, text = Deno.readTextFileSync(path)): Book {
  const book = checkBook(path, text).book;
  if (book === null) throw new Error(`${path} has errors`);
  return book;
}

/** Every book of tests/chobo/books and examples, sorted. */
export function everyBook(): string[] {
  return bookPaths([`${ROOT}tests/chobo/books`, `${ROOT}examples`]);
}
