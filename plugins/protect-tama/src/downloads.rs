//! Where `curl`, `wget` and `aria2c` save what they fetch, their
//! configuration files read as the options they set.

use crate::prelude::*;

use crate::commands::{each, option_values, short_flags};
use crate::protected::Change;
use crate::walk::{Result, Walker};

/// Where `curl`, `wget` and `aria2c` save what they fetch: the file an
/// option names (`aria2c -o` and `curl -o` within the folder given to
/// `aria2c -d` and `curl --output-dir`), else a file in that folder (`wget
/// -P`) or the working one, named after the URL's last part. When the
/// server may pick the name instead (`curl -J`, `wget
/// --content-disposition`, `aria2c` by default), any name in the folder
/// counts: a server that answers `settings.json` writes Claude Code's hook
/// settings in `~/.claude`. A recursive `wget`, and `aria2c` fetching what
/// a torrent or metalink lists, write anything under their folder.
pub fn download(walker: &mut Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    let args: Vec<String> = configured(walker, name, args)?
        .into_iter()
        .chain(args.iter().cloned())
        .collect();
    let args = &args[..];
    let fetch = Fetch::read(walker, name, args)?;
    each(walker, &fetch.named, Change::Remove, "writes")?;
    each(walker, &fetch.side_files, Change::Write, "writes")?;
    for command in &fetch.runs {
        // `aria2c --on-download-complete=./done.sh` runs that program.
        walker.child_source_if_shell(command)?;
    }
    if fetch.tree {
        return walker.changes(&fetch.folder, Change::Remove, "fetches files into");
    }
    if !fetch.by_url {
        return Ok(());
    }
    let folder = fetch.folder.trim_end_matches('/');
    let urls = args.iter().chain(&fetch.listed_urls);
    let by_url: Vec<String> = urls
        .filter_map(|arg| arg.split_once("://").map(|(_, rest)| rest))
        .flat_map(|rest| {
            let path = rest.split(['?', '#']).next().unwrap_or_default();
            let file = path.split_once('/').map_or("", |(_, path)| path);
            let file = file.rsplit('/').next().unwrap_or_default();
            let file = if file.is_empty() { "index.html" } else { file };
            // curl fetches every name `{a,b}` spells, unless told `-g`.
            if fetch.globs {
                alternatives(file)
            } else {
                vec![file.to_owned()]
            }
        })
        .map(|file| format!("{folder}/{file}"))
        .collect();
    each(walker, &by_url, Change::Remove, "saves a download as")?;
    if fetch.server_names {
        walker.changes(
            &format!("{folder}/*"),
            Change::Write,
            "saves a download under a name known only as it runs (the server's, or a URL it reads), as",
        )?;
    }
    Ok(())
}

/// How one `curl`, `wget` or `aria2c` call saves what it fetches.
struct Fetch {
    /// The folder files land in by name.
    folder: String,
    /// Files options name.
    named: Vec<String>,
    /// What else it writes: headers, cookies, traces, logs, sessions.
    side_files: Vec<String>,
    /// Programs it runs when a download ends.
    runs: Vec<String>,
    /// Files are named after their URLs, or as the server says.
    by_url: bool,
    /// The server may pick a file's name.
    server_names: bool,
    /// It may write anything under the folder.
    tree: bool,
    /// URLs an input file lists (`wget -i`, `aria2c -i`).
    listed_urls: Vec<String>,
    /// `{a,b}` in a URL spells several (curl's globbing).
    globs: bool,
}

impl Fetch {
    fn read(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<Fetch> {
        let inputs = input_files(walker, name, args)?;
        let listed_urls = inputs.iter().flat_map(|text| urls_in(text)).collect();
        let set = |long: &[&str], short: &str| {
            args.iter().any(|arg| {
                long.contains(&arg.as_str())
                    || short_flags(arg).is_some_and(|flags| flags.contains(|c| short.contains(c)))
            })
        };
        Ok(match name {
            "curl" => {
                let folder = option_values(args, &["--output-dir"]).pop();
                Fetch {
                    named: within(folder.as_deref(), option_values(args, &["-o", "--output"])),
                    folder: folder.unwrap_or_else(|| ".".to_owned()),
                    side_files: option_values(args, CURL_SIDE_FILES),
                    runs: Vec::new(),
                    by_url: set(&["--remote-name", "--remote-name-all"], "O"),
                    server_names: set(&["--remote-header-name"], "J"),
                    tree: false,
                    listed_urls,
                    // Only `-g` alone: in a cluster (`-og`) it may be a value.
                    globs: !args.iter().any(|arg| arg == "-g" || arg == "--globoff"),
                }
            }
            "wget" => {
                let settings = option_values(args, &["-e", "--execute"]);
                // `wget -i -` reads its URLs from its input, unseen here.
                let listed_on_input = option_values(args, &["-i", "--input-file"])
                    .iter()
                    .any(|file| file == "-" || file == "/dev/stdin");
                let named = option_values(args, &["-O", "--output-document"]);
                Fetch {
                    by_url: named.is_empty(),
                    named,
                    folder: option_values(args, &["-P", "--directory-prefix"])
                        .pop()
                        .unwrap_or_else(|| ".".to_owned()),
                    side_files: option_values(
                        args,
                        &["-o", "--output-file", "-a", "--append-output"],
                    ),
                    runs: Vec::new(),
                    server_names: set(&["--content-disposition", "--trust-server-names"], "")
                        || listed_on_input
                        || settings.iter().any(|setting| {
                            setting.contains("content_disposition")
                                || setting.contains("trust_server_names")
                        }),
                    // `-x` (`-nH`) keeps the URL's folders: `~/.claude/settings.json`.
                    tree: set(
                        &[
                            "--recursive",
                            "--mirror",
                            "--force-directories",
                            "--page-requisites",
                        ],
                        "rmxp",
                    ),
                    listed_urls,
                    globs: false,
                }
            }
            "aria2c" => Fetch::aria2c(args, &inputs, listed_urls),
            _ => Fetch::yt_dlp(args),
        })
    }

    /// `aria2c`: `-o` names a file in the `-d` folder; an input file (`-i`)
    /// gives each URL a `dir=` and `out=` of its own.
    fn aria2c(args: &[String], inputs: &[&str], listed_urls: Vec<String>) -> Fetch {
        // Options of a URL in an input file stand indented on the lines after it.
        let input_options: Vec<(&str, &str)> = inputs
            .iter()
            .flat_map(|text| text.lines())
            .filter(|line| line.starts_with([' ', '\t']))
            .filter_map(|line| line.trim().split_once('='))
            .collect();
        let from_input = |key: &str| -> Vec<String> {
            input_options
                .iter()
                .filter(|(name, _)| *name == key)
                .map(|(_, value)| (*value).to_owned())
                .collect()
        };
        let mut folders: Vec<String> = option_values(args, &["-d", "--dir"])
            .into_iter()
            .chain(from_input("dir"))
            .collect();
        if folders.is_empty() {
            folders.push(".".to_owned());
        }
        let named_once = option_values(args, &["-o", "--out"]);
        let outs: Vec<String> = named_once
            .iter()
            .cloned()
            .chain(from_input("out"))
            .collect();
        let named = folders
            .iter()
            .flat_map(|folder| within(Some(folder), outs.clone()))
            .collect();
        let lists = args.iter().any(|arg| {
            matches!(
                arg.as_str(),
                "-T" | "--torrent-file" | "-M" | "--metalink-file"
            ) || arg.starts_with("--torrent-file=")
                || arg.starts_with("--metalink-file=")
                || arg.starts_with("magnet:")
                || [".torrent", ".metalink", ".meta4"]
                    .iter()
                    .any(|end| arg.ends_with(end))
        });
        Fetch {
            named,
            folder: folders.pop().unwrap_or_default(),
            side_files: option_values(args, ARIA2C_SIDE_FILES),
            runs: option_values(args, ARIA2C_HOOKS),
            // aria2c names a download as the server's Content-Disposition says.
            // `-Z` fetches each URL as a file of its own, `-o` ignored.
            by_url: named_once.is_empty()
                || !input_options.is_empty()
                || args.iter().any(|arg| {
                    short_flags(arg).is_some_and(|flags| flags.contains('Z'))
                        || (arg.starts_with("--force-sequential") && !arg.ends_with("=false"))
                }),
            server_names: true,
            tree: lists,
            listed_urls,
            globs: false,
        }
    }

    /// `yt-dlp` (and `youtube-dl`): `-o` is a name, or a template the
    /// video's own fields fill (`%(title)s.%(ext)s`), within the `-P` folder;
    /// the default template too names files as the site says.
    fn yt_dlp(args: &[String]) -> Fetch {
        // `-P home:DIR` and `-o TYPE:TEMPLATE` may name what they are for.
        let typed = |value: String| match value.split_once(':') {
            Some((kind, rest)) if kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') => {
                (Some(kind.to_owned()), rest.to_owned())
            }
            _ => (None, value),
        };
        let folder = option_values(args, &["-P", "--paths"])
            .into_iter()
            .map(typed)
            .filter(|(kind, _)| kind.as_deref().is_none_or(|kind| kind == "home"))
            .map(|(_, folder)| folder)
            .next_back()
            .unwrap_or_else(|| ".".to_owned());
        let templates: Vec<String> = option_values(args, &["-o", "--output"])
            .into_iter()
            .map(|value| typed(value).1)
            .collect();
        let (filled, named): (Vec<String>, Vec<String>) =
            templates.into_iter().partition(|t| t.contains("%("));
        Fetch {
            named: within(Some(&folder), named.clone()),
            tree: filled.iter().any(|template| template.contains('/')),
            by_url: named.is_empty(),
            server_names: true,
            folder,
            side_files: Vec::new(),
            runs: option_values(args, &["--exec"]),
            listed_urls: Vec::new(),
            globs: false,
        }
    }
}

/// The texts of the files `wget -i` and `aria2c -i` read URLs from; one
/// that cannot be read (a named pipe, whose text comes later) is refused.
fn input_files<'w>(walker: &'w Walker<'_>, name: &str, args: &[String]) -> Result<Vec<&'w str>> {
    if name == "curl" {
        return Ok(Vec::new());
    }
    let mut texts = Vec::new();
    for file in option_values(args, &["-i", "--input-file"]) {
        let Some(text) = walker.file_text(&file) else {
            continue;
        };
        if let Some((path, why)) = shell_reader::disk::unread_in(text) {
            return Err(format!(
                "`{name}` reads the URLs it fetches from `{path}`, which protect-tama could not read ({why}), so it cannot tell where the downloads are saved"
            ));
        }
        texts.push(text);
    }
    Ok(texts)
}

/// The URLs in `text`: a list, one or more to a line, or a page's links.
fn urls_in(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '(' | ')'))
        .filter(|word| word.contains("://"))
        .map(str::to_owned)
        .collect()
}

/// The names `{a,b}` groups in `name` spell, as curl fetches them; any
/// name (`*`) past a few hundred.
fn alternatives(name: &str) -> Vec<String> {
    let mut names = vec![String::new()];
    let mut rest = name;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|at| open + at) else {
            break;
        };
        let (before, group) = (&rest[..open], &rest[open + 1..close]);
        names = names
            .iter()
            .flat_map(|name| {
                group
                    .split(',')
                    .map(move |choice| format!("{name}{before}{choice}"))
            })
            .collect();
        if names.len() > 256 {
            return vec!["*".to_owned()];
        }
        rest = &rest[close + 1..];
    }
    names.into_iter().map(|name| name + rest).collect()
}

/// Each of `files`, within `folder` when relative and one is given.
fn within(folder: Option<&str>, files: Vec<String>) -> Vec<String> {
    match folder {
        None => files,
        Some(folder) => files
            .into_iter()
            .map(|file| {
                if file.starts_with('/') {
                    file
                } else {
                    format!("{}/{file}", folder.trim_end_matches('/'))
                }
            })
            .collect(),
    }
}

/// What else `curl` writes: headers, cookies, traces, its error output and
/// the C source `--libcurl` writes.
const CURL_SIDE_FILES: &[&str] = &[
    "-D",
    "--dump-header",
    "-c",
    "--cookie-jar",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--libcurl",
    "--etag-save",
    "--hsts",
    "--alt-svc",
];

/// What else `aria2c` writes: its log, session, cookies and statistics.
const ARIA2C_SIDE_FILES: &[&str] = &[
    "-l",
    "--log",
    "--save-session",
    "--save-cookies",
    "--server-stat-of",
    "--dht-file-path",
    "--dht-file-path6",
];

/// The programs `aria2c` runs as downloads start, pause, end or fail.
const ARIA2C_HOOKS: &[&str] = &[
    "--on-download-start",
    "--on-download-pause",
    "--on-download-stop",
    "--on-download-complete",
    "--on-download-error",
    "--on-bt-download-complete",
];

/// The options a download tool takes from its configuration before its
/// command line, which overrides them: the files it reads by default, as
/// they are on disk or as this command wrote them (`~/.curlrc`,
/// `~/.wgetrc`, aria2's `aria2.conf`), and those `curl -K`, `wget --config`
/// and `aria2c --conf-path` name. The agent may write one in a tool call and
/// download in the next: `output-dir = ~/.claude` in `~/.curlrc`.
/// A file that cannot be read (a named pipe, whose text comes later) is
/// refused: what it sets is not known.
fn configured(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<Vec<String>> {
    let (files, read): (_, fn(&str) -> Vec<String>) = match name {
        "curl" => (curl_files(walker, args), curl_options),
        "wget" => (wget_files(walker, args), wget_options),
        "aria2c" => (aria2c_files(walker, args), aria2c_options),
        _ => (yt_dlp_files(walker, args), yt_dlp_options),
    };
    let mut options = Vec::new();
    for text in files.iter().filter_map(|file| walker.file_text(file)) {
        if let Some((path, why)) = shell_reader::disk::unread_in(text) {
            return Err(format!(
                "`{name}` reads its options from `{path}`, which protect-tama could not read ({why}), so it cannot tell where the download is saved"
            ));
        }
        options.extend(read(text));
    }
    Ok(options)
}

/// `$XDG_CONFIG_HOME` as the command sets it, else its default.
fn config_home(walker: &Walker<'_>) -> String {
    walker
        .assigned("XDG_CONFIG_HOME")
        .map_or_else(|| format!("{}/.config", walker.home()), str::to_owned)
}

/// curl's: `.curlrc` in `$CURL_HOME`, `$XDG_CONFIG_HOME` and the home
/// folder (none when `-q` comes first), and the files `-K` names.
fn curl_files(walker: &Walker<'_>, args: &[String]) -> Vec<String> {
    let mut files = Vec::new();
    if !args
        .first()
        .is_some_and(|first| first == "-q" || first == "--disable")
    {
        let curl_home = walker.assigned("CURL_HOME");
        files.extend(curl_home.map(|folder| format!("{folder}/.curlrc")));
        files.push(format!("{}/.curlrc", config_home(walker)));
        files.push(format!("{}/.curlrc", walker.home()));
    }
    files.extend(option_values(args, &["-K", "--config"]));
    files
}

/// wget's: `$WGETRC` or `~/.wgetrc`, and `/etc/wgetrc` (none with
/// `--no-config`), and the file `--config` names.
fn wget_files(walker: &Walker<'_>, args: &[String]) -> Vec<String> {
    let mut files = Vec::new();
    if !args.iter().any(|arg| arg == "--no-config") {
        let user = walker.assigned("WGETRC");
        files.push(user.map_or_else(|| format!("{}/.wgetrc", walker.home()), str::to_owned));
        files.push("/etc/wgetrc".to_owned());
    }
    files.extend(option_values(args, &["--config"]));
    files
}

/// aria2c's: `aria2.conf` in `~/.aria2` and `$XDG_CONFIG_HOME/aria2`
/// (none with `--no-conf`), and the file `--conf-path` names.
fn aria2c_files(walker: &Walker<'_>, args: &[String]) -> Vec<String> {
    let mut files = Vec::new();
    if !args
        .iter()
        .any(|arg| arg == "--no-conf" || arg == "--no-conf=true")
    {
        files.push(format!("{}/.aria2/aria2.conf", walker.home()));
        files.push(format!("{}/aria2/aria2.conf", config_home(walker)));
    }
    files.extend(option_values(args, &["--conf-path"]));
    files
}

/// A setting's name and value: `name = value`, `name value`, `name: value`.
fn setting(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let end = line.find([' ', '\t', '=', ':']).unwrap_or(line.len());
    let (name, rest) = line.split_at(end);
    let value = rest.trim_start_matches([' ', '\t', '=', ':']).trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value);
    Some((name, value))
}

/// A `.curlrc`'s lines as curl's options (`output-dir = …` is `--output-dir …`).
fn curl_options(text: &str) -> Vec<String> {
    let mut options = Vec::new();
    for (name, value) in text.lines().filter_map(setting) {
        let dashes = if name.starts_with('-') { "" } else { "--" };
        options.push(format!("{dashes}{name}"));
        if !value.is_empty() {
            options.push(value.to_owned());
        }
    }
    options
}

/// A `.wgetrc`'s commands as wget's options, for those that choose where
/// files land (`dir_prefix = …` is `-P …`).
fn wget_options(text: &str) -> Vec<String> {
    let mut options = Vec::new();
    for (name, value) in text.lines().filter_map(setting) {
        // wgetrc reads `dir_prefix`, `dir-prefix` and `dirprefix` alike.
        let name = name.replace(['_', '-'], "").to_ascii_lowercase();
        let on = matches!(value.to_ascii_lowercase().as_str(), "on" | "yes" | "1");
        match (name.as_str(), on) {
            ("dirprefix", _) => options.extend(["-P".to_owned(), value.to_owned()]),
            ("outputdocument", _) => options.extend(["-O".to_owned(), value.to_owned()]),
            ("logfile", _) => options.extend(["-o".to_owned(), value.to_owned()]),
            ("contentdisposition", true) => options.push("--content-disposition".to_owned()),
            ("trustservernames", true) => options.push("--trust-server-names".to_owned()),
            ("recursive", true) => options.push("--recursive".to_owned()),
            ("mirror", true) => options.push("--mirror".to_owned()),
            ("dirstruct", true) => options.push("--force-directories".to_owned()),
            ("pagerequisites", true) => options.push("--page-requisites".to_owned()),
            _ => {}
        }
    }
    options
}

/// yt-dlp's: `yt-dlp/config` and `yt-dlp.conf` in `$XDG_CONFIG_HOME`, and
/// `.yt-dlp/config` and `yt-dlp.conf` in the home folder (none with
/// `--ignore-config`), and the files `--config-locations` names.
fn yt_dlp_files(walker: &Walker<'_>, args: &[String]) -> Vec<String> {
    let mut files = Vec::new();
    if !args.iter().any(|arg| arg == "--ignore-config") {
        let (config, home) = (config_home(walker), walker.home());
        files.extend([
            format!("{config}/yt-dlp/config"),
            format!("{config}/yt-dlp.conf"),
            format!("{home}/.yt-dlp/config"),
            format!("{home}/yt-dlp.conf"),
        ]);
    }
    files.extend(option_values(args, &["--config-locations"]));
    files
}

/// A yt-dlp configuration's lines: options as on the command line.
fn yt_dlp_options(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(|word| word.trim_matches(['"', '\'']).to_owned())
        .collect()
}

/// An `aria2.conf`'s lines as aria2c's options (`dir=…` is `--dir=…`).
fn aria2c_options(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(setting)
        .map(|(name, value)| format!("--{name}={value}"))
        .collect()
}
