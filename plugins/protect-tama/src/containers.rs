//! A command that opens a shell elsewhere with the terminal attached: in a
//! container (`docker run -it ubuntu`, `kubectl exec -it pod -- sh`), a
//! virtual machine (`vagrant ssh`), or a development environment
//! (`nix-shell`, `toolbox enter`, `poetry shell`). What is typed into it
//! runs there unhooked; a project's folder, or the whole home for
//! `toolbox` and `distrobox`, is often mounted in it. A command given to run
//! there is checked as [`crate::terminal`] checks one run here.

use crate::prelude::*;

use crate::commands::{basename, short_flags};

/// How `name args…` opens a shell or a prompt that reads the terminal
/// elsewhere, if it does.
pub fn reader(name: &str, args: &[String]) -> Option<&'static str> {
    const THERE: &str = "in a container or virtual machine with the terminal attached";
    const ENVIRONMENT: &str = "as a development environment's shell reading the terminal";
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let (first, rest) = match words.split_first() {
        Some((first, rest)) => (*first, rest),
        None => ("", &[][..]),
    };
    let has = |flags: &[&str]| words.iter().any(|word| flags.contains(word));
    let opens = match name {
        "docker" | "podman" | "nerdctl" | "finch" => engine(&words),
        "docker-compose" | "podman-compose" => compose(&words),
        "kubectl" | "oc" => kubectl(&words),
        "lxc" | "incus" => match first {
            "shell" | "console" => true,
            "exec" => opens_prompt(command_of(rest, &[], 1)),
            _ => false,
        },
        "vagrant" => first == "ssh" && !has(&["-c", "--command"]),
        "multipass" => first == "shell",
        "limactl" => first == "shell" && opens_prompt(command_of(rest, &[], 1)),
        "lima" | "orb" | "orbctl" => opens_prompt(&words),
        "colima" => first == "ssh" && opens_prompt(command_of(rest, &[], 0)),
        "machinectl" => first == "shell" && opens_prompt(command_of(rest, &[], 1)),
        "systemd-nspawn" => {
            !has(&["-b", "--boot"]) && opens_prompt(command_of(&words, NSPAWN_VALUED, 0))
        }
        _ => false,
    };
    if opens {
        return Some(THERE);
    }
    let environment = match name {
        "toolbox" => first == "enter",
        "distrobox" => first == "enter" && opens_prompt(command_of(rest, &[], 1)),
        "distrobox-enter" => opens_prompt(command_of(&words, &[], 1)),
        "nix-shell" => !has(&["--run", "--command"]),
        "nix" => matches!(first, "develop" | "shell") && !has(&["-c", "--command"]),
        "poetry" | "pipenv" | "hatch" | "rye" | "devbox" => first == "shell",
        "flox" => first == "activate" && !has(&["-c", "--"]),
        _ => false,
    };
    environment.then_some(ENVIRONMENT)
}

/// docker's (podman's, nerdctl's) `run`, `exec`, `attach` and `start -ai`,
/// with their input attached (`-i`) and not detached, running a shell or a
/// prompt, or the image's own command, which for a distribution's image is
/// its shell.
fn engine(words: &[&str]) -> bool {
    let at = after_options(words, ENGINE_GLOBAL_VALUED);
    let (mut command, mut rest) = match words.get(at..) {
        Some([command, rest @ ..]) => (*command, rest),
        _ => return false,
    };
    if command == "container" {
        (command, rest) = match rest {
            [command, rest @ ..] => (*command, rest),
            _ => return false,
        };
    }
    let options = &rest[..after_options(rest, CONTAINER_VALUED)];
    let attached =
        short_flag(options, 'i', "--interactive") && !short_flag(options, 'd', "--detach");
    match command {
        "compose" => compose(rest),
        "run" | "create" | "exec" => {
            attached && opens_prompt(command_of(rest, CONTAINER_VALUED, 1))
        }
        "attach" => !rest.contains(&"--no-stdin"),
        "start" => attached && short_flag(options, 'a', "--attach"),
        _ => false,
    }
}

/// `docker compose exec` and `run` (their input attached unless detached),
/// and `attach`.
fn compose(words: &[&str]) -> bool {
    let at = after_options(words, COMPOSE_GLOBAL_VALUED);
    match words.get(at..) {
        Some(["exec" | "run", rest @ ..]) => {
            let options = &rest[..after_options(rest, CONTAINER_VALUED)];
            !short_flag(options, 'd', "--detach")
                && opens_prompt(command_of(rest, CONTAINER_VALUED, 1))
        }
        Some(["attach", ..]) => true,
        _ => false,
    }
}

/// kubectl's `exec`, `run`, `attach` and `debug` with `-i` (`--stdin`).
fn kubectl(words: &[&str]) -> bool {
    let at = after_options(words, KUBECTL_VALUED);
    let Some([command, rest @ ..]) = words.get(at..) else {
        return false;
    };
    let options: Vec<&str> = rest
        .iter()
        .take_while(|word| **word != "--")
        .copied()
        .filter(|word| word.starts_with('-'))
        .collect();
    if !short_flag(&options, 'i', "--stdin") && !options.contains(&"--stdin=true") {
        return false;
    }
    match *command {
        "exec" | "run" | "debug" => opens_prompt(command_of(rest, KUBECTL_VALUED, 1)),
        "attach" => true,
        _ => false,
    }
}

/// Whether `options` hold the short flag `letter` (alone or among others,
/// `-it`) or `long`.
fn short_flag(options: &[&str], letter: char, long: &str) -> bool {
    options.iter().any(|option| {
        *option == long || short_flags(option).is_some_and(|flags| flags.contains(letter))
    })
}

/// The command a container command runs: the words after `--`, or after
/// its options and `operands` operands (the image, the container).
fn command_of<'w>(words: &'w [&'w str], valued: &[&str], operands: usize) -> &'w [&'w str] {
    if let Some(at) = words.iter().position(|word| *word == "--") {
        return words.get(at + 1..).unwrap_or_default();
    }
    let at = after_options(words, valued) + operands;
    words.get(at..).unwrap_or_default()
}

/// Whether `command` (a program and its arguments, run with the terminal
/// attached) reads its commands from it; an empty one runs the default,
/// a shell.
fn opens_prompt(command: &[&str]) -> bool {
    let Some((program, args)) = command.split_first() else {
        return true;
    };
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    crate::terminal::reads_terminal(basename(program), &args)
}

/// The index past the leading options, an option in `valued` taking the
/// next word (`-v src:dst`) unless it holds its value (`--name=x`).
fn after_options(words: &[&str], valued: &[&str]) -> usize {
    let mut index = 0;
    while let Some(word) = words.get(index) {
        if *word == "--" {
            return index + 1;
        }
        if !word.starts_with('-') || *word == "-" {
            break;
        }
        let takes_value = !word.contains('=')
            && (valued.contains(word)
                || (word.starts_with("--") && !CONTAINER_SWITCHES.contains(word)));
        index += if takes_value { 2 } else { 1 };
    }
    index.min(words.len())
}

/// Long options of container commands that take no value; every other
/// long option without `=` takes the next word.
const CONTAINER_SWITCHES: &[&str] = &[
    "--rm",
    "--init",
    "--privileged",
    "--read-only",
    "--interactive",
    "--tty",
    "--detach",
    "--publish-all",
    "--no-healthcheck",
    "--oom-kill-disable",
    "--quiet",
    "--no-TTY",
    "--no-deps",
    "--service-ports",
    "--use-aliases",
    "--build",
    "--remove-orphans",
    "--attach",
    "--no-stdin",
    "--stdin",
    "--help",
    "--debug",
    "--tls",
    "--tlsverify",
    "--verbose",
    "--dry-run",
    "--all-namespaces",
    "--disable-content-trust",
];

/// Short options of `docker run`/`exec` (and compose's) that take a value.
const CONTAINER_VALUED: &[&str] = &[
    "-v", "-e", "-p", "-w", "-u", "-h", "-m", "-c", "-l", "-a", "--name",
];

/// docker's global options that take a value (`docker -H host run …`).
const ENGINE_GLOBAL_VALUED: &[&str] = &["-H", "-c", "-l", "--host", "--context", "--config"];

/// `docker compose`'s global options that take a value.
const COMPOSE_GLOBAL_VALUED: &[&str] = &["-f", "-p", "--file", "--project-name"];

/// kubectl's short options that take a value.
const KUBECTL_VALUED: &[&str] = &["-n", "-c", "-f", "-l", "-o", "-s"];

/// systemd-nspawn's short options that take a value.
const NSPAWN_VALUED: &[&str] = &["-D", "-M", "-u", "-E", "-i", "-a", "-p", "-U"];
