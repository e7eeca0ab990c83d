//! Programs that write or move away a file their arguments name, beyond
//! the shell's redirections and the file tools the walk models itself: an
//! output option, a second operand, a file rewritten in place, what a
//! compressor replaces a file with, a rename, the trash, and downloads.

use crate::prelude::*;

use crate::commands::{each, operands, option_values, short_flags};
use crate::protected::Change;
use crate::walk::{Result, Walker};

/// The options by which programs name the file they write (`sort -o`,
/// `iconv -o`, `openssl … -out`, `gpg --output`, `zstd -o`). Read for
/// programs the gate does not otherwise model: a value that names no
/// protected path passes whatever the option means.
const OUTPUT_OPTIONS: &[&str] = &[
    "-o",
    "--output",
    "-out",
    "--out",
    "--outfile",
    "--output-file",
    "--output-document",
    "--log-file",
    // A compiler's dependency list; openssl's new private key and seed file.
    "-MF",
    "-keyout",
    "-writerand",
];

/// Files the wrappers before a command write: `strace -o FILE`, `ltrace -o
/// FILE`, and the lock file `flock FILE` creates.
pub fn wrapper_writes(walker: &Walker<'_>, wrappers: &[String]) -> Result<()> {
    let mut written = Vec::new();
    for (at, word) in wrappers.iter().enumerate() {
        let rest = &wrappers[at + 1..];
        match crate::commands::basename(word) {
            "strace" | "ltrace" => written.extend(option_values(rest, &["-o", "--output"])),
            "flock" => written.extend(
                operands(rest, &["-w", "--timeout", "-E", "--conflict-exit-code"])
                    .into_iter()
                    .take(1),
            ),
            _ => {}
        }
    }
    each(walker, &written, Change::Write, "writes")
}

/// What `name args…` writes, for the programs read here; `None` for the
/// others.
pub fn writes(walker: &Walker<'_>, name: &str, args: &[String]) -> Option<Result<()>> {
    if let Err(refusal) = archived_away(walker, name, args) {
        return Some(Err(refusal));
    }
    let written = match name {
        // `uniq IN OUT`, `xxd IN OUT`: the second operand is written.
        "uniq" | "xxd" => operands(args, &["-f", "-s", "-w", "-c", "-g", "-l", "-o"])
            .into_iter()
            .skip(1)
            .take(1)
            .collect(),
        "sort" => option_values(args, &["-o", "--output"]),
        // gawk's `-i inplace` rewrites the files after the program.
        "awk" | "gawk"
            if option_values(args, &["-i", "--include"])
                .iter()
                .any(|library| library.starts_with("inplace")) =>
        {
            let programs = ["-f", "--file", "-E", "--exec"];
            let mut valued = vec![
                "-v",
                "--assign",
                "-F",
                "--field-separator",
                "-i",
                "--include",
            ];
            valued.extend(programs);
            let given = !option_values(args, &programs).is_empty();
            operands(args, &valued)
                .into_iter()
                .skip(usize::from(!given))
                .filter(|operand| !operand.contains('='))
                .collect()
        }
        // `fallocate -p` punches holes in the file's content.
        "fallocate" => operands(args, &["-o", "--offset", "-l", "--length"]),
        "dos2unix" | "unix2dos" | "mac2unix" | "unix2mac" | "fromdos" | "todos" => {
            operands(args, &[])
        }
        // `zip ARCHIVE FILE…` writes its archive; `sqlite3 DB SQL` its
        // database unless opened read-only.
        "zip" => operands(args, &["-b", "-n", "-t", "-tt", "-x", "-i", "-O", "--out"])
            .into_iter()
            .take(1)
            .collect(),
        // `mktemp -p DIR`, `mktemp DIR/name.XXXX`: a new file in DIR.
        // Without a template, with `-t` or with `--tmpdir` alone, in `$TMPDIR`.
        "mktemp" => {
            let given = operands(args, &["-p", "--tmpdir", "--suffix"]);
            let template = given.first().map_or("tmp.*", String::as_str);
            let template = template.trim_end_matches('X');
            let in_tmpdir = given.is_empty()
                || args.iter().any(|arg| {
                    arg == "--tmpdir" || short_flags(arg).is_some_and(|flags| flags.contains('t'))
                });
            let folder = option_values(args, &["-p", "--tmpdir"])
                .pop()
                .or_else(|| walker.known("TMPDIR").filter(|_| in_tmpdir));
            match folder {
                Some(folder) => vec![format!("{folder}/{template}*")],
                None if template.contains('/') => vec![format!("{template}*")],
                None => Vec::new(),
            }
        }
        "sqlite3"
            if !args
                .iter()
                .any(|arg| arg.trim_start_matches('-') == "readonly") =>
        {
            operands(args, &["-cmd", "-separator", "-newline", "-nullvalue"])
                .into_iter()
                .take(1)
                .collect()
        }
        // Configuration editors that rewrite the file they are given:
        // `json -I -f`, `dasel put|delete -f`, `crudini --set|--del FILE`.
        "json" if args.iter().any(|arg| arg == "-I" || arg == "--in-place") => {
            option_values(args, &["-f"])
        }
        "dasel"
            if args
                .first()
                .is_some_and(|verb| verb == "put" || verb == "delete") =>
        {
            option_values(args, &["-f", "--file"])
        }
        "crudini"
            if args
                .iter()
                .any(|arg| arg != "--get" && arg.starts_with("--")) =>
        {
            operands(args, &[]).into_iter().take(1).collect()
        }
        // Package installers put packages under the folder they are given,
        // and `pip download`, `pip wheel` and `npm pack` their archives.
        "npm" | "pnpm" | "yarn" | "bun" => {
            let mut written = option_values(
                args,
                &["--prefix", "--modules-folder", "--pack-destination"],
            );
            written.extend(package_configuration(walker, name, args));
            written.extend(global_harness_packages(args));
            written
        }
        "pip" | "pip3" | "uv" | "conda" | "mamba" => {
            let mut written = option_values(
                args,
                &[
                    "-t",
                    "--target",
                    "--prefix",
                    "--root",
                    "-d",
                    "--dest",
                    "-w",
                    "--wheel-dir",
                ],
            );
            written.extend(package_configuration(walker, name, args));
            written
        }
        // Java's and its kin's compilers write classes under `-d DIR`, and
        // javac its sources and headers under `-s` and `-h`.
        "javac" | "kotlinc" | "scalac" | "groovyc" => option_values(args, &["-d", "-s", "-h"])
            .into_iter()
            .map(|folder| format!("{folder}/*"))
            .collect(),
        // Debian's `tempfile -d DIR` makes a file in DIR.
        "tempfile" => option_values(args, &["-d", "--directory"])
            .into_iter()
            .map(|folder| format!("{folder}/*"))
            .collect(),
        // gpg keeps its keyring and trust database in its home.
        "gpg" | "gpg2" | "gpg-agent" | "gpgconf" => option_values(args, &["--homedir"])
            .into_iter()
            .chain(walker.known("GNUPGHOME"))
            .map(|folder| format!("{folder}/*"))
            .collect(),
        // `ssh-keygen -f FILE` writes the key and FILE.pub, unless it only
        // reads one (`-l`, `-y`, `-e`, `-B`, `-F`).
        "ssh-keygen"
            if !args
                .iter()
                .any(|a| matches!(a.as_str(), "-l" | "-y" | "-e" | "-B" | "-F")) =>
        {
            option_values(args, &["-f"])
                .into_iter()
                .flat_map(|key| [format!("{key}.pub"), key])
                .collect()
        }
        // `split FILE PREFIX` and `csplit -f PREFIX` write PREFIXaa, PREFIXab, ….
        "split" => operands(
            args,
            &[
                "-a",
                "--suffix-length",
                "-b",
                "--bytes",
                "-C",
                "--line-bytes",
                "-l",
                "--lines",
                "-n",
                "--number",
                "-t",
                "--separator",
                "--additional-suffix",
                "--filter",
            ],
        )
        .get(1)
        .map(|prefix| vec![format!("{prefix}*")])
        .unwrap_or_default(),
        "csplit" => {
            let prefix = option_values(args, &["-f", "--prefix"]);
            let prefix = prefix.first().map_or("xx", String::as_str);
            vec![format!("{prefix}*")]
        }
        // `script FILE` records the session into FILE, and its logs where
        // their options say.
        "script" => {
            let logs = [
                "-I",
                "--log-in",
                "-O",
                "--log-out",
                "-B",
                "--log-io",
                "-T",
                "--log-timing",
                "-t",
            ];
            let mut valued = vec!["-c", "--command", "-E", "--echo", "-m", "--logging-format"];
            valued.extend(logs);
            let mut written = option_values(args, &logs);
            written.extend(operands(args, &valued).into_iter().take(1));
            written
        }
        // The shell's `history -w FILE` and `-a FILE` write its history,
        // which `history -s` sets; without a FILE, to `$HISTFILE`.
        "history" if args.iter().any(|a| a == "-w" || a == "-a") => {
            let files = operands(args, &[]);
            match files.is_empty() {
                true => walker.known("HISTFILE").into_iter().collect(),
                false => files,
            }
        }
        "virtualenv" => operands(args, &["-p", "--python", "--prompt"]),
        // `sd FIND REPLACE FILE…` rewrites each file.
        "sd" => operands(args, &["-f", "--flags", "-n", "--max-replacements"])
            .into_iter()
            .skip(2)
            .collect(),
        _ => {
            return moved_away(walker, name, args)
                .or_else(|| compressed(walker, name, args))
                .or_else(|| remote_copies(walker, name, args));
        }
    };
    Some(each(walker, &written, Change::Write, "rewrites"))
}

/// What `zip -m` and `tar --remove-files` delete: the files they put in
/// the archive.
pub fn archived_away(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    if !shell_reader::runners::archives_away(name, args) {
        return Ok(());
    }
    let archived = match name {
        "zip" => operands(args, &["-b", "-n", "-t", "-tt", "-x", "-i", "-O", "--out"])
            .into_iter()
            .skip(1)
            .collect(),
        _ => crate::archives::tar_members(args),
    };
    each(walker, &archived, Change::Remove, "moves into an archive")
}

/// Files renamed, trashed or moved by programs other than `mv` and `rm`:
/// Perl's and util-linux's `rename`, trash tools, and `gio`'s and KDE's
/// file commands (whose last operand of a copy or move is written).
fn moved_away(walker: &Walker<'_>, name: &str, args: &[String]) -> Option<Result<()>> {
    // Read only for the programs below: most commands are none of them.
    let read = || operands(args, &["-e", "-E"]);
    let files: Vec<String>;
    let (removed, written): (&[String], &[String]) = match name {
        // The expression, or util-linux's two strings, come first; a string
        // read as a path here protects nothing.
        "rename" | "rename.ul" | "prename" | "file-rename" | "perl-rename" => {
            files = read();
            (files.get(1..)?, &[])
        }
        "trash" | "trash-put" | "gtrash" | "rmtrash" | "gio-trash" => {
            files = read();
            (&files[..], &[])
        }
        "gio" | "kioclient" | "kioclient5" | "kioclient6" => {
            files = read();
            let (command, rest) = files.split_first()?;
            match command.as_str() {
                "trash" | "remove" | "rename" | "del" => (rest, &[]),
                "move" | "mv" => rest
                    .split_last()
                    .map(|(to, from)| (from, core::slice::from_ref(to)))?,
                "copy" | "cp" | "save" | "set" => (&[], rest.last().map(core::slice::from_ref)?),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(
        each(walker, removed, Change::Remove, "moves away")
            .and_then(|()| each(walker, written, Change::Write, "writes")),
    )
}

/// Each output option's value (see [`OUTPUT_OPTIONS`]), the files in each
/// output folder's value (see [`OUTPUT_FOLDERS`]), and the operands of a
/// program that rewrites the files it is given (see [`rewrites_operands`]).
pub fn output_options(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    let mut written = Vec::new();
    if rewrites_operands(name, args) {
        written.extend(operands(args, &[]));
    }
    if args.iter().any(|arg| arg.starts_with('-')) {
        written.extend(option_values(args, OUTPUT_OPTIONS));
        written.extend(linker_outputs(args));
        written.extend(
            option_values(args, OUTPUT_FOLDERS)
                .into_iter()
                .map(|folder| format!("{folder}/*")),
        );
    }
    each(walker, &written, Change::Write, "writes")
}

/// The files a compiler's linker options (`-Wl,-Map=FILE`, `-Wl,-o,FILE`)
/// have the linker write.
fn linker_outputs(args: &[String]) -> Vec<String> {
    let mut written = Vec::new();
    for options in args.iter().filter_map(|arg| arg.strip_prefix("-Wl,")) {
        let mut options = options.split(',');
        while let Some(option) = options.next() {
            match option {
                "-Map" | "--Map" | "-o" | "--output" => {
                    written.extend(options.next().map(str::to_owned))
                }
                _ => written.extend(
                    ["-Map=", "--Map=", "--output="]
                        .iter()
                        .find_map(|prefix| option.strip_prefix(prefix))
                        .map(str::to_owned),
                ),
            }
        }
    }
    written
}

/// Whether a program rewrites the files it is given: any program told so by
/// `--in-place`, `--write` or `--fix` (`prettier --write`, `eslint --fix`),
/// the editors and formatters whose `-i` or `-w` means it (`tomlq -i`,
/// `clang-format -i`, `gofmt -w`), and the formatters that always do
/// (`black`, `rustfmt`, `taplo fmt`). A short flag means other things to
/// other programs (`sort -i`, `fold -w`), so it counts only for those.
fn rewrites_operands(name: &str, args: &[String]) -> bool {
    let flagged = |flags: &[&str]| args.iter().any(|arg| flags.contains(&arg.as_str()));
    let verb = |verbs: &[&str]| {
        operands(args, &[])
            .first()
            .is_some_and(|word| verbs.contains(&word.as_str()))
    };
    flagged(&["--in-place", "--inplace", "--write", "--fix"])
        || match name {
            "tomlq" | "xq" | "jaq" | "jsonlint" | "clang-format" | "autopep8" | "yapf"
            | "autoflake" => flagged(&["-i"]),
            "gofmt" | "goimports" | "gofumpt" | "shfmt" | "prettier" => flagged(&["-w"]),
            "xmlstarlet" | "xml" => flagged(&["-L"]),
            "black" | "rustfmt" | "isort" | "stylua" | "nixfmt" | "alejandra" | "yamlfix" => {
                !flagged(&["--check", "--diff"])
            }
            "taplo" | "deno" | "terraform" | "tofu" | "zig" | "dprint" => {
                verb(&["fmt", "format"]) && !flagged(&["--check"])
            }
            "ruff" => verb(&["format"]) && !flagged(&["--check", "--diff"]),
            _ => false,
        }
}

/// The options by which builders and bundlers name the folder they write
/// into (`tsc --outDir`, `esbuild --outdir`, `babel --out-dir`).
const OUTPUT_FOLDERS: &[&str] = &[
    "--outdir",
    "--outDir",
    "--out-dir",
    "--output-dir",
    "--output-path",
];

/// The configuration file a package manager's command sets a value in: npm's
/// `config set|delete|edit`, `login` and `logout` write `--userconfig`
/// (`npm_config_userconfig`) or `--globalconfig`; pip's `config set|unset|edit`
/// Where a global removal of a harness's npm package, or an install of a
/// version of it other than the latest (`npm uninstall -g @openai/codex`,
/// `npm i -g @anthropic-ai/claude-code@1.0.0`), changes its installed code,
/// the global folder standing for wherever the prefix puts it: an older
/// version may handle hooks otherwise, or not at all. Installing or
/// updating it to the latest passes.
fn global_harness_packages(args: &[String]) -> Vec<String> {
    let global = args.iter().any(|arg| {
        matches!(
            arg.as_str(),
            "-g" | "--global" | "--location=global" | "global"
        )
    });
    let reads = |word: &str| {
        matches!(
            word,
            "ls" | "list"
                | "la"
                | "ll"
                | "view"
                | "info"
                | "show"
                | "outdated"
                | "search"
                | "root"
                | "prefix"
                | "bin"
                | "help"
                | "docs"
                | "why"
                | "explain"
                | "audit"
        )
    };
    let operands = operands(args, &["--prefix", "--location", "--registry", "--tag"]);
    // `yarn global add …`: the subcommand follows `global`.
    let Some(subcommand) = operands.iter().find(|word| word.as_str() != "global") else {
        return Vec::new();
    };
    if !global || reads(subcommand) {
        return Vec::new();
    }
    let removes = matches!(
        subcommand.as_str(),
        "uninstall" | "remove" | "rm" | "r" | "un" | "unlink" | "link" | "ln"
    );
    operands
        .iter()
        .filter(|spec| crate::protected::names_harness_package(spec))
        .filter(|spec| removes || spec[1..].contains('@') && !spec.ends_with("@latest"))
        .map(|spec| {
            // `@scope/name@version`: the package's folder is named without it.
            let name = match spec[1..].find('@') {
                Some(at) => &spec[..=at],
                None => spec,
            };
            format!("/usr/local/lib/node_modules/{name}")
        })
        .collect()
}

/// writes `PIP_CONFIG_FILE`; conda's `config --set|--add|--remove…` writes
/// `--file` (`CONDARC`).
fn package_configuration(walker: &Walker<'_>, name: &str, args: &[String]) -> Vec<String> {
    let words = operands(args, &["--userconfig", "--globalconfig", "--file"]);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let from_environment = |names: &[&str]| -> Vec<String> {
        names.iter().filter_map(|name| walker.known(name)).collect()
    };
    match name {
        "npm" | "pnpm" | "yarn" | "bun"
            if matches!(
                words.as_slice(),
                ["config" | "c", "set" | "delete" | "rm" | "edit" | "fix", ..]
                    | ["set" | "login" | "logout" | "adduser" | "add-user", ..]
            ) =>
        {
            let mut files = option_values(args, &["--userconfig", "--globalconfig"]);
            files.extend(from_environment(&[
                "npm_config_userconfig",
                "NPM_CONFIG_USERCONFIG",
                "npm_config_globalconfig",
                "NPM_CONFIG_GLOBALCONFIG",
            ]));
            files
        }
        "pip" | "pip3" if words.first() == Some(&"config") => {
            from_environment(&["PIP_CONFIG_FILE"])
        }
        "conda" | "mamba" if words.first() == Some(&"config") => {
            let mut files = option_values(args, &["--file"]);
            files.extend(from_environment(&["CONDARC"]));
            files
        }
        _ => Vec::new(),
    }
}

/// Copies from a remote into a local folder or file: `rclone copy`, `sync`,
/// `move` or `mount SOURCE DESTINATION` (the destination's files replaced;
/// a sync also deletes what the source lacks) and `sftp HOST:PATH LOCAL`.
fn remote_copies(walker: &Walker<'_>, name: &str, args: &[String]) -> Option<Result<()>> {
    const RCLONE: &[&str] = &[
        "copy", "sync", "move", "copyto", "moveto", "bisync", "mount", "nfsmount",
    ];
    if !matches!(name, "rclone" | "sftp") {
        return None;
    }
    let files = operands(args, &[]);
    let destination = match name {
        "rclone" => {
            let at = files
                .iter()
                .position(|word| RCLONE.contains(&word.as_str()))?;
            files.get(at + 2)?
        }
        "sftp" => match files.as_slice() {
            [_remote, local] => local,
            _ => return None,
        },
        _ => return None,
    };
    // `remote:path` names no file of this machine.
    let first = destination.split('/').next().unwrap_or_default();
    if first.contains(':') {
        return Some(Ok(()));
    }
    Some(walker.changes(destination, Change::Remove, "copies files into"))
}

/// Compressors replace each file with its compressed form, and
/// decompressors write the file without the suffix (`gunzip
/// settings.json.gz` writes `settings.json`), unless they keep it or write
/// to standard output.
fn compressed(walker: &Walker<'_>, name: &str, args: &[String]) -> Option<Result<()>> {
    const TOOLS: &[&str] = &[
        "gzip", "pigz", "bzip2", "pbzip2", "xz", "lzma", "zstd", "lz4", "brotli", "compress",
        "lzip",
    ];
    // `gunzip`, `bunzip2`, `unxz`, `unzstd`, `uncompress`: the decompressing names.
    let tool = match name {
        "gunzip" => "gzip",
        "bunzip2" => "bzip2",
        _ => name.strip_prefix("un").unwrap_or(name),
    };
    if !TOOLS.contains(&tool) {
        return None;
    }
    let long = |names: &[&str]| args.iter().any(|arg| names.contains(&arg.as_str()));
    let short = |flags: &[char]| {
        args.iter()
            .any(|arg| short_flags(arg).is_some_and(|f| f.contains(flags)))
    };
    if long(&["--stdout", "--to-stdout", "--list", "--test"]) || short(&['c', 't', 'l']) {
        return Some(Ok(()));
    }
    let files = operands(
        args,
        &["-S", "--suffix", "-o", "-T", "--threads", "-b", "-p"],
    );
    if name != tool || long(&["--decompress", "--uncompress"]) || short(&['d']) {
        let written: Vec<String> = files.iter().map(|file| without_suffix(file)).collect();
        return Some(each(walker, &written, Change::Write, "decompresses into"));
    }
    // zstd, lz4 and brotli keep the file unless told to remove it.
    let keeps = matches!(tool, "zstd" | "lz4" | "brotli") && !long(&["--rm"]);
    if keeps || long(&["--keep"]) || short(&['k']) {
        return Some(Ok(()));
    }
    Some(each(walker, &files, Change::Remove, "compresses away"))
}

/// A compressed file's name without its suffix, as the decompressor names
/// what it writes.
fn without_suffix(file: &str) -> String {
    const SUFFIXES: &[(&str, &str)] = &[
        (".tgz", ".tar"),
        (".gz", ""),
        (".bz2", ""),
        (".xz", ""),
        (".lzma", ""),
        (".zst", ""),
        (".lz4", ""),
        (".br", ""),
        (".lz", ""),
        (".Z", ""),
        (".z", ""),
    ];
    SUFFIXES
        .iter()
        .find_map(|(suffix, instead)| {
            file.strip_suffix(suffix)
                .map(|stem| format!("{stem}{instead}"))
        })
        .unwrap_or_else(|| file.to_owned())
}

/// The files a sed script's `w` commands and `s///w` flags write; the
/// name runs to the end of its line. Every `w ` after a character that may
/// end an address, a command or a flag is taken, so text that only looks
/// like one gives a name that protects nothing.
pub fn sed_written(script: &str) -> Vec<String> {
    let mut files = Vec::new();
    for line in script.lines() {
        let bytes = line.as_bytes();
        for at in 0..bytes.len() {
            let command = matches!(bytes[at], b'w' | b'W') && bytes.get(at + 1) == Some(&b' ');
            let after = at.checked_sub(1).map(|before| bytes[before]);
            let starts = after.is_none_or(|before| b";{}/$!0123456789gpiImMe \t".contains(&before));
            if command && starts {
                let file = line[at + 2..].trim();
                if !file.is_empty() {
                    files.push(file.to_owned());
                }
            }
        }
    }
    files
}

/// Records what `tee`, `cp`, `mv`, `install` and `ln` put into the files
/// they write (or link) when the walk knows it: the input `tee` reads (`cp
/// /dev/stdin` too), a file this command wrote, or one on disk. A script
/// copied under another name and then run is read as it runs (`echo … > a
/// && cp a b.go && go run b.go`).
pub fn carry_written(
    walker: &mut Walker<'_>,
    name: &str,
    args: &[String],
    stdin: Option<&str>,
) -> Result<()> {
    let known = |walker: &Walker<'_>, source: &str| match source {
        "/dev/stdin" | "-" => stdin.map(str::to_owned),
        _ => walker.file_text(source).map(str::to_owned),
    };
    match name {
        "tee" => {
            let Some(text) = stdin else { return Ok(()) };
            let append = args
                .iter()
                .any(|arg| arg == "--append" || short_flags(arg).is_some_and(|f| f.contains('a')));
            for file in operands(args, &["--output-error"]) {
                let path = walker.resolve(&file);
                walker.check_run_later(&path, text)?;
                walker.record_written(path, text, append);
            }
        }
        "cp" | "mv" | "install" | "ln" => {
            let syntax = if name == "install" {
                &crate::commands::INSTALL
            } else {
                &crate::commands::GNU_COPY
            };
            let Some((files, destinations)) = crate::commands::copied(args, syntax) else {
                return Ok(());
            };
            for (source, target) in files
                .iter()
                .flat_map(|f| destinations.iter().map(move |d| (f, d)))
            {
                let Some(text) = known(walker, source) else {
                    continue;
                };
                let base = source
                    .rsplit_once('/')
                    .map_or(source.as_str(), |(_, base)| base);
                // The target is a file, or a folder the source goes into.
                for path in [target.clone(), format!("{target}/{base}")] {
                    let path = walker.resolve(&path);
                    walker.check_run_later(&path, &text)?;
                    walker.record_written(path, &text, false);
                }
            }
        }
        _ => {}
    }
    Ok(())
}
