// Types for scripts/generate-content.mjs (plain ESM, not compiled), for the TypeScript tests.
export const PROJECT_ID: 'bench';
export const TOKEN: 'bench-token';
export const AUTHOR_COUNT: number;
export const CATEGORIES: readonly string[];
export const TAGS: readonly string[];
export const MEDIA: readonly string[];

export type Format = 'md' | 'yaml' | 'mixed';

export interface GeneratedItem {
  id: string;
  locale: 'en' | 'de';
  draft: boolean;
  title: string;
  slug: string;
  price: number;
  stock: number;
  in_stock: boolean;
  category: string;
  tags: string[];
  /** YYYY-MM-DD */
  published: string;
  /** ISO 8601 UTC */
  available_at: string;
  rating: number;
  author: string;
  cover: string;
  body: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

export interface GenerateResult {
  root: string;
  project: string;
  entries: number;
  drafts: number;
  files: number;
  bytes: number;
  ms: number;
}

export function mulberry32(seed: number): () => number;
export function itemId(index: number, total: number): string;
export function authorId(index: number): string;
export function generateItems(options: { entries: number; seed?: number }): Generator<GeneratedItem>;
export function generateContent(options: { entries: number; out: string; seed?: number; format?: Format }): GenerateResult;
export function exportJsonServerDb(source: string | GeneratedItem[] | { entries: number; seed?: number }): {
  items: Omit<GeneratedItem, 'draft'>[];
};
export function exportJsonServerDb(
  source: string | GeneratedItem[] | { entries: number; seed?: number },
  file: string,
): { items: number; file: string };
export function tinyPng(width: number, height: number, rgb: [number, number, number]): Buffer;
