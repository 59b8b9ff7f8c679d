#!/usr/bin/env python3
"""Lists the GoogleTest cases a ctest run skipped, each with its reason.

Where each ctest test is a whole test binary (SSTFILTER_TEST_PER_BINARY,
tests/CMakeLists.txt), ctest sees the binary pass even when some of its
cases skipped (a SIMD level the CPU lacks). The binaries write their cases'
results as GoogleTest XML into one directory; this reads them all and
prints each skipped case and the reason its GTEST_SKIP gave, so that no
skip passes unseen. Usage: skipped_cases.py DIR (no XML in DIR: prints
nothing).
"""
import pathlib
import sys
import xml.etree.ElementTree as ElementTree


def skipped_cases(results_dir):
    """(case, reason) of every skipped case in the XML files of results_dir."""
    cases = []
    for path in sorted(pathlib.Path(results_dir).glob("*.xml")):
        try:
            root = ElementTree.parse(path).getroot()
        except ElementTree.ParseError as error:
            cases.append((path.name, f"unreadable results ({error}): the binary may have crashed"))
            continue
        for case in root.iter("testcase"):
            skipped = case.find("skipped")
            if skipped is None:
                continue
            # The message is "file:line\nreason": the reason is its last line.
            reason = (skipped.get("message") or "").strip().splitlines()
            name = f"{case.get('classname')}.{case.get('name')}"
            cases.append((name, reason[-1].strip() if reason else "(no reason given)"))
    return cases


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: skipped_cases.py DIR")
    cases = skipped_cases(sys.argv[1])
    if not cases:
        return
    print(f"{len(cases)} test cases skipped (the binaries passed; each case's reason):")
    for name, reason in cases:
        print(f"  {name}: {reason}")


if __name__ == "__main__":
    main()
