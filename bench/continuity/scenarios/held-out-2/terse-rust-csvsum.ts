import type { Scenario } from '../../scenario-types';

const MAIN_RS = `use std::env;
use std::fs;
use std::process;

mod cli;
mod sum;

fn main() {
    let args = match cli::parse(env::args().skip(1).collect()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("csvsum: {e}");
            process::exit(2);
        }
    };
    let text = fs::read_to_string(&args.path).unwrap_or_else(|e| {
        eprintln!("csvsum: {}: {e}", args.path);
        process::exit(1)
    });
    match sum::sum_column(&text, &args.column) {
        Ok(total) => println!("{total}"),
        Err(e) => {
            eprintln!("csvsum: {e}");
            process::exit(1);
        }
    }
}
`;

const CLI_RS = `/// Command-line arguments: \`csvsum --column NAME FILE\`.
pub struct Args {
    pub column: String,
    pub path: String,
}

pub fn parse(argv: Vec<String>) -> Result<Args, String> {
    let mut column = None;
    let mut path = None;
    let mut it = argv.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-c" | "--column" => column = it.next(),
            _ if a.starts_with('-') => return Err(format!("unknown option {a}")),
            _ => path = Some(a),
        }
    }
    Ok(Args {
        column: column.ok_or("missing --column")?,
        path: path.ok_or("missing FILE")?,
    })
}
`;

const CLI_RS_DELIM = `/// Command-line arguments: \`csvsum --column NAME [--delimiter C] FILE\`.
pub struct Args {
    pub column: String,
    pub delimiter: String,
    pub path: String,
}

pub fn parse(argv: Vec<String>) -> Result<Args, String> {
    let mut column = None;
    let mut delimiter = String::from(",");
    let mut path = None;
    let mut it = argv.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-c" | "--column" => column = it.next(),
            "-d" | "--delimiter" => delimiter = it.next().ok_or("--delimiter needs a value")?,
            _ if a.starts_with('-') => return Err(format!("unknown option {a}")),
            _ => path = Some(a),
        }
    }
    Ok(Args {
        column: column.ok_or("missing --column")?,
        delimiter,
        path: path.ok_or("missing FILE")?,
    })
}
`;

const SUM_RS = `/// Sums the named column of a comma-separated text with a header line.
pub fn sum_column(text: &str, column: &str) -> Result<f64, String> {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let idx = header
        .split(',')
        .position(|h| h.trim() == column)
        .ok_or_else(|| format!("no column named {column:?}"))?;
    let mut total = 0.0;
    for (n, line) in lines.enumerate() {
        let field = line
            .split(',')
            .nth(idx)
            .ok_or_else(|| format!("line {}: no field {}", n + 2, idx + 1))?;
        total += field
            .trim()
            .parse::<f64>()
            .map_err(|e| format!("line {}: {e}", n + 2))?;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_amounts() {
        assert_eq!(sum_column("name,amount\\na,2.5\\nb,4\\n", "amount").unwrap(), 6.5);
    }
}
`;

const SPLIT_RS = `/// Splits one line into fields; a delimiter inside double quotes belongs to the field.
pub fn split_fields(line: &str, delimiter: char) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    for c in line.chars() {
        match c {
            '"' => in_quotes = !in_quotes,
            c if c == delimiter && !in_quotes => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_plain_fields() {
        assert_eq!(split_fields("a;b;c", ';'), vec!["a", "b", "c"]);
    }

    #[test]
    fn keeps_delimiter_inside_quotes() {
        assert_eq!(split_fields("\\"Smith; J.\\";5", ';'), vec!["Smith; J.", "5"]);
    }

    #[test]
    fn escaped_double_quote() {
        assert_eq!(split_fields("\\"TV 55\\"\\" screen\\";3", ';'), vec!["TV 55\\" screen", "3"]);
    }
}
`;

// The project's Makefile runs cargo in the pinned toolchain container; here scripts/cargo.sh prints what cargo prints for the state of src/.
const CARGO_SH = [
  '#!/bin/sh',
  '# cargo inside the pinned toolchain image: scripts/cargo.sh build|test|run [ARGS]',
  'cmd=$1; shift',
  'here=$(pwd)',
  'if grep -q "pub delimiter: String" src/cli.rs && grep -q "args.delimiter" src/main.rs; then',
  '  echo "   Compiling csvsum v0.3.0 ($here)"',
  '  echo "error[E0308]: mismatched types"',
  '  echo "  --> src/main.rs:20:48"',
  '  echo "   |"',
  '  echo "20 |     match sum::sum_column(&text, &args.column, args.delimiter) {"',
  '  echo "   |           ---------------                      ^^^^^^^^^^^^^^ expected \\`char\\`, found \\`String\\`"',
  '  echo "   |           |"',
  '  echo "   |           arguments to this function are incorrect"',
  '  echo "   |"',
  '  echo "note: function defined here"',
  '  echo "  --> src/sum.rs:2:8"',
  '  echo "   |"',
  '  echo " 2 | pub fn sum_column(text: &str, column: &str, delimiter: char) -> Result<f64, String> {"',
  '  echo "   |        ^^^^^^^^^^                           ---------------"',
  '  echo ""',
  '  echo "For more information about this error, try \\`rustc --explain E0308\\`."',
  '  echo "error: could not compile \\`csvsum\\` (bin \\"csvsum\\") due to 1 previous error"',
  '  exit 101',
  'fi',
  'case $cmd in',
  'build)',
  '  echo "   Compiling csvsum v0.3.0 ($here)"',
  '  echo "    Finished \\`dev\\` profile [unoptimized + debuginfo] target(s) in 0.61s"',
  '  ;;',
  'run)',
  '  if grep -q "lines.next().unwrap()" src/sum.rs; then',
  '    echo ""',
  '    echo "thread \'main\' (8114) panicked at src/sum.rs:4:31:"',
  '    echo "called \\`Option::unwrap()\\` on a \\`None\\` value"',
  '    echo "note: run with \\`RUST_BACKTRACE=1\\` environment variable to display a backtrace"',
  '    exit 101',
  '  fi',
  '  case "$*" in',
  '    *sales-semicolon*) echo 32.5 ;;',
  '    *) echo 0 ;;',
  '  esac',
  '  ;;',
  'test)',
  '  if [ -f src/split.rs ]; then',
  '    echo ""',
  '    echo "running 6 tests"',
  '    echo "split::tests::escaped_double_quote --- FAILED"',
  '    echo "....."',
  '    echo "failures:"',
  '    echo ""',
  '    echo "---- split::tests::escaped_double_quote stdout ----"',
  '    echo ""',
  '    echo "thread \'split::tests::escaped_double_quote\' (8377) panicked at src/split.rs:33:9:"',
  '    echo "assertion \\`left == right\\` failed"',
  '    echo "  left: [\\"TV 55 screen\\", \\"3\\"]"',
  '    echo " right: [\\"TV 55\\\\\\" screen\\", \\"3\\"]"',
  '    echo "note: run with \\`RUST_BACKTRACE=1\\` environment variable to display a backtrace"',
  '    echo ""',
  '    echo ""',
  '    echo "failures:"',
  '    echo "    split::tests::escaped_double_quote"',
  '    echo ""',
  '    echo "test result: FAILED. 5 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"',
  '    echo ""',
  '    echo "error: test failed, to rerun pass \\`--bin csvsum\\`"',
  '    exit 101',
  '  fi',
  '  if grep -q quoted_field_with_delimiter src/sum.rs; then',
  '    echo ""',
  '    echo "running 3 tests"',
  '    echo ".. 2/3"',
  '    echo "sum::tests::quoted_field_with_delimiter --- FAILED"',
  '    echo ""',
  '    echo "failures:"',
  '    echo ""',
  '    echo "---- sum::tests::quoted_field_with_delimiter stdout ----"',
  '    echo ""',
  '    echo "thread \'sum::tests::quoted_field_with_delimiter\' (8302) panicked at src/sum.rs:37:52:"',
  '    echo "called \\`Result::unwrap()\\` on an \\`Err\\` value: \\"line 2: invalid float literal\\""',
  '    echo "note: run with \\`RUST_BACKTRACE=1\\` environment variable to display a backtrace"',
  '    echo ""',
  '    echo ""',
  '    echo "failures:"',
  '    echo "    sum::tests::quoted_field_with_delimiter"',
  '    echo ""',
  '    echo "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"',
  '    echo ""',
  '    echo "error: test failed, to rerun pass \\`--bin csvsum\\`"',
  '    exit 101',
  '  fi',
  '  n=$(grep -c "#\\[test\\]" src/sum.rs)',
  '  echo ""',
  '  echo "running $n tests"',
  '  echo ".."',
  '  echo "test result: ok. $n passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"',
  '  ;;',
  'esac',
  '',
].join('\n');

/** Terse prompts ("ok", "next", "do it") drive a Rust CLI through a fix, a feature, and a half-done parser. */
export const terseRustCsvsum: Scenario = {
  name: 'terse-rust-csvsum',
  covers: 'a Rust CLI driven by one-word prompts ("ok", "next", "do it"): the objective comes from what "do it" agreed to, a compile error and a panic fixed, one test still failing',
  repo: {
    'Cargo.toml': '[package]\nname = "csvsum"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\n',
    '.gitignore': '/target\n',
    'Makefile': "ARGS ?=\n\n.PHONY: build test run\nbuild:\n\t@sh scripts/cargo.sh build\ntest:\n\t@sh scripts/cargo.sh test\nrun:\n\t@sh scripts/cargo.sh run $(ARGS)\n",
    'scripts/cargo.sh': CARGO_SH,
    'src/main.rs': MAIN_RS,
    'src/cli.rs': CLI_RS,
    'src/sum.rs': SUM_RS,
    'testdata/empty.csv': '',
    'testdata/sales-semicolon.csv': 'name;amount\nmug;12.5\ntee;20\n',
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: "csvsum panics on an empty file: `make run ARGS='--column amount testdata/empty.csv'`. Fix that. After that I want a --delimiter option, the Lisbon office exports with semicolons.",
          actions: [
            { tool: 'Bash', command: "make run ARGS='--column amount testdata/empty.csv'", description: 'Reproduce the panic' },
            { tool: 'Read', path: 'src/sum.rs' },
            { tool: 'Edit', path: 'src/sum.rs', old: '    let header = lines.next().unwrap();\n', new: '    let Some(header) = lines.next() else {\n        return Ok(0.0); // an empty file sums to 0\n    };\n' },
            { tool: 'Edit', path: 'src/sum.rs', old: '    #[test]\n    fn sums_amounts() {', new: '    #[test]\n    fn empty_file_is_zero() {\n        assert_eq!(sum_column("", "amount").unwrap(), 0.0);\n    }\n\n    #[test]\n    fn sums_amounts() {' },
            { tool: 'Bash', command: "make test; make run ARGS='--column amount testdata/empty.csv'", description: 'Tests, then the empty file again' },
            { text: "Fixed: sum_column no longer unwraps the missing header line; an empty file sums to 0 (src/sum.rs, with an empty_file_is_zero test). Next is the --delimiter option. Go ahead?" },
          ],
        },
        {
          prompt: 'ok',
          actions: [
            { tool: 'Read', path: 'src/cli.rs' },
            { tool: 'Write', path: 'src/cli.rs', content: CLI_RS_DELIM },
            { tool: 'Read', path: 'src/sum.rs' },
            { tool: 'Edit', path: 'src/sum.rs', old: '/// Sums the named column of a comma-separated text with a header line.\npub fn sum_column(text: &str, column: &str) -> Result<f64, String> {', new: '/// Sums the named column of a delimited text with a header line.\npub fn sum_column(text: &str, column: &str, delimiter: char) -> Result<f64, String> {' },
            { tool: 'Edit', path: 'src/sum.rs', old: "        .split(',')\n        .position", new: '        .split(delimiter)\n        .position' },
            { tool: 'Edit', path: 'src/sum.rs', old: "            .split(',')\n            .nth", new: '            .split(delimiter)\n            .nth' },
            { tool: 'Edit', path: 'src/sum.rs', old: 'sum_column("", "amount")', new: "sum_column(\"\", \"amount\", ',')" },
            { tool: 'Edit', path: 'src/sum.rs', old: 'sum_column("name,amount\\na,2.5\\nb,4\\n", "amount")', new: "sum_column(\"name,amount\\na,2.5\\nb,4\\n\", \"amount\", ',')" },
            { tool: 'Read', path: 'src/main.rs' },
            { tool: 'Edit', path: 'src/main.rs', old: 'sum::sum_column(&text, &args.column)', new: 'sum::sum_column(&text, &args.column, args.delimiter)' },
            { tool: 'Bash', command: 'make build', description: 'Build' },
            { tool: 'Edit', path: 'src/cli.rs', old: '    pub delimiter: String,', new: '    pub delimiter: char,' },
            { tool: 'Edit', path: 'src/cli.rs', old: '    let mut delimiter = String::from(",");', new: "    let mut delimiter = ',';" },
            {
              tool: 'Edit',
              path: 'src/cli.rs',
              old: '            "-d" | "--delimiter" => delimiter = it.next().ok_or("--delimiter needs a value")?,',
              new: '            "-d" | "--delimiter" => {\n                let v = it.next().ok_or("--delimiter needs a value")?;\n                let mut chars = v.chars();\n                delimiter = match (chars.next(), chars.next()) {\n                    (Some(c), None) => c,\n                    _ => return Err(format!("--delimiter must be one character, got {v:?}")),\n                };\n            }',
            },
            { tool: 'Bash', command: "make test && make run ARGS=\"-c amount -d ';' testdata/sales-semicolon.csv\"", description: 'Tests, then a semicolon file' },
            { text: "--delimiter / -d works: `-d ';'` on testdata/sales-semicolon.csv prints 32.5. The first build failed with E0308 (cli.rs kept the delimiter as a String while sum_column takes a char); it is a char now, and a value longer than one character is rejected.\n\nNext I'd add a test for a quoted field that contains the delimiter (\"Smith; J.\";5): the plain split() will not handle it." },
          ],
        },
        {
          prompt: 'next',
          actions: [
            { tool: 'Read', path: 'src/sum.rs' },
            { tool: 'Edit', path: 'src/sum.rs', old: '    #[test]\n    fn sums_amounts() {', new: '    #[test]\n    fn quoted_field_with_delimiter() {\n        let text = "name;amount\\n\\"Smith; J.\\";5\\n";\n        assert_eq!(sum_column(text, "amount", \';\').unwrap(), 5.0);\n    }\n\n    #[test]\n    fn sums_amounts() {' },
            { tool: 'Bash', command: 'make test', description: 'Run the tests' },
            { text: 'As expected, quoted_field_with_delimiter fails: split() cuts "Smith; J." in two, so the amount column reads \' J."\' (line 2: invalid float literal).\n\nTwo ways: (1) a small quote-aware split_fields() of our own in a new src/split.rs, no dependencies; (2) pull in the csv crate. I would do (1): the tool has no dependencies today.' },
          ],
        },
        {
          prompt: 'do it',
          actions: [
            { tool: 'Write', path: 'src/split.rs', content: SPLIT_RS },
            { tool: 'Read', path: 'src/main.rs' },
            { tool: 'Edit', path: 'src/main.rs', old: 'mod cli;\nmod sum;', new: 'mod cli;\nmod split;\nmod sum;' },
            { tool: 'Read', path: 'src/sum.rs' },
            { tool: 'Edit', path: 'src/sum.rs', old: '/// Sums the named column of a delimited text', new: 'use crate::split::split_fields;\n\n/// Sums the named column of a delimited text' },
            { tool: 'Edit', path: 'src/sum.rs', old: '    let idx = header\n        .split(delimiter)\n        .position', new: '    let idx = split_fields(header, delimiter)\n        .iter()\n        .position' },
            { tool: 'Edit', path: 'src/sum.rs', old: '        let field = line\n            .split(delimiter)\n            .nth(idx)', new: '        let fields = split_fields(line, delimiter);\n        let field = fields\n            .get(idx)' },
            { tool: 'Bash', command: 'make test', description: 'Run the tests' },
            { text: 'split_fields() is in src/split.rs and sum.rs uses it for the header and every line. quoted_field_with_delimiter passes now; 5 of 6 tests pass.\n\nStill failing: split::tests::escaped_double_quote. A doubled quote inside a quoted field ("TV 55"" screen") must give one literal quote, but the toggle drops both: left "TV 55 screen", right "TV 55\\" screen".\n\nNext: in split_fields, when inside quotes and the next character is also a quote, push one \'"\' and skip the second instead of toggling.' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'k, where are we' },
  facts: [
    { id: 'objective: quote-aware splitting (what "do it" agreed to)', in: ['objective'], pattern: 'quot|split' },
    { id: 'the open failing test escaped_double_quote', in: ['errors'], pattern: 'escaped_double_quote|doubled? quote|""' },
    { id: 'next: handle the doubled quote in split_fields', in: ['next_valid_action'], pattern: 'doubl|escaped|""|literal quote|split_fields' },
    { id: 'src/split.rs in the files', in: ['files'], pattern: 'src/split\\.rs' },
    { id: 'the empty-file panic fix or --delimiter done', in: ['done'], pattern: 'empty|panic|delimiter' },
  ],
  antiFacts: [
    { id: 'a one-word prompt as the objective', in: ['objective'], pattern: '^\\W*(ok|next|do it)\\W*$' },
    { id: 'the fixed panic shown open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(panicked|Option::unwrap|empty file)' },
    { id: 'the fixed E0308 shown open', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→)).*(E0308|mismatched types)' },
    { id: 'the csv crate (not chosen) as the next step', in: ['next_valid_action'], pattern: 'csv crate|cargo add' },
  ],
};
