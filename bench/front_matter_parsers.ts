// Compares the two YAML parsers on front-matter blocks (SPEC 1: the choice is
// a performance decision). Prints the ratio, not absolute times.
// Run: deno run -A bench/front_matter_parsers.ts [blocks]
import { CORE_SCHEMA, load } from "js-yaml";
import { parse } from "yaml";

const count = Number(Deno.args[0] ?? 10000);
const blocks = Array.from({ length: count }, (_, i) =>
  `title: "Post number ${i}: a realistic title"
description: A description of item ${i} that is a sentence or two long, as most are.
date: 2026-0${1 + (i % 9)}-1${i % 10}
authors:
  - Ana Pérez
  - { name: Jōji Tanaka, slug: joji-tanaka }
tags: [Deno, Guía, tag-${i % 50}]
sidebar_position: ${i % 7}
draft: ${i % 20 === 0}
image: /img/${i}.png`);

function time(fn: (text: string) => unknown): number {
  for (const block of blocks.slice(0, 500)) fn(block); // warm up
  const start = performance.now();
  for (const block of blocks) fn(block);
  return performance.now() - start;
}

const jsYaml = time((text) => load(text, { schema: CORE_SCHEMA }));
const yaml = time((text) => parse(text));
console.log(
  `${count} front-matter blocks: yaml / js-yaml time ratio = ${(yaml / jsYaml).toFixed(1)}×`,
);
