//! What tools that fetch from elsewhere write, beyond downloads: a
//! release's or a run's files (`gh`), a checkout (`gh repo clone`, `svn`),
//! a container's files (`kubectl cp`), a bucket's objects (`aws s3`,
//! `gsutil`, `gcloud storage`, `s3cmd`, `az`).

use crate::prelude::*;

use crate::commands::{each, operands, option_values};
use crate::git::clone_folder;
use crate::protected::Change;
use crate::walk::{Result, Walker};

/// Where `gh`, `svn` and `kubectl` put what they fetch: a release's files
/// under the names the release gives them (`gh release download -D DIR`), a
/// run's artifacts unpacked (`gh run download -D DIR`), a repository cloned
/// or checked out (`gh repo clone REPO DIR`, `svn checkout URL DIR`, `svn
/// export`, by default into a folder named after the source), a
/// container's files (`kubectl cp`).
pub fn fetched(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    if !matches!(name, "gh" | "svn" | "kubectl" | "oc") {
        return Ok(());
    }
    let words = operands(args, REMOTE_COPY_VALUED);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let folder = || {
        option_values(args, &["-D", "--dir"])
            .pop()
            .unwrap_or_else(|| ".".to_owned())
    };
    match (name, words.as_slice()) {
        ("gh", ["release", "download", ..]) => {
            let named = option_values(args, &["-O", "--output"]);
            if !named.is_empty() {
                return each(walker, &named, Change::Remove, "writes");
            }
            walker.changes(
                &format!("{}/*", folder().trim_end_matches('/')),
                Change::Write,
                "saves a release's files, under the names the release gives them, as",
            )
        }
        ("gh", ["run", "download", ..]) => {
            walker.changes(&folder(), Change::Remove, "unpacks a run's artifacts into")
        }
        ("gh", ["repo" | "gist", "clone", source, rest @ ..]) => {
            let target = rest
                .first()
                .map_or_else(|| clone_folder(source), |t| (*t).to_owned());
            walker.changes(&target, Change::Remove, "clones into")
        }
        ("svn", [checkout, source, rest @ ..])
            if matches!(*checkout, "checkout" | "co" | "export") =>
        {
            let target = rest
                .first()
                .map_or_else(|| clone_folder(source), |t| (*t).to_owned());
            walker.changes(&target, Change::Remove, "checks files out into")
        }
        // `kubectl cp pod:/cfg DIR` puts the folder's contents in DIR.
        ("kubectl" | "oc", ["cp", from, to, ..]) if from.contains(':') && !to.contains(':') => {
            walker.changes(to, Change::Remove, "copies a container's files into")
        }
        _ => Ok(()),
    }
}

/// Where cloud storage tools put what they fetch: a tree of objects synced
/// or copied recursively into a folder, whose names the bucket gives (`aws
/// s3 sync s3://b/cfg ~/.claude`, `aws s3 cp --recursive`, `gsutil rsync`,
/// `gcloud storage rsync`, `s3cmd sync`, `s3cmd get -r`, `mc mirror`, `az
/// storage blob download-batch -d`), and the file `az storage blob
/// download -f` names. A single object copied lands as `cp` puts it, which
/// the gate reads in the arguments of a program it does not model.
pub fn cloud(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    if !matches!(name, "aws" | "gsutil" | "gcloud" | "s3cmd" | "mc" | "az") {
        return Ok(());
    }
    let words = operands(args, CLOUD_VALUED);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let recursive = args
        .iter()
        .any(|arg| matches!(arg.as_str(), "--recursive" | "-r" | "-R"));
    let local = |path: &&str| !path.contains("://") && !path.contains(':');
    let tree: Option<&str> = match (name, words.as_slice()) {
        ("aws", ["s3", "sync", _, to, ..]) => Some(to),
        ("aws", ["s3", "cp" | "mv", _, to, ..]) if recursive => Some(to),
        ("gsutil", ["rsync", _, to, ..]) | ("gcloud", ["storage", "rsync", _, to, ..]) => Some(to),
        ("s3cmd", ["sync", _, to, ..]) => Some(to),
        ("s3cmd", ["get", _, to, ..]) if recursive => Some(to),
        ("mc", ["mirror", _, to, ..]) => Some(to),
        ("az", ["storage", "blob" | "file", batch, ..]) if batch.ends_with("download-batch") => {
            return match option_values(args, &["-d", "--destination"]).pop() {
                Some(folder) => walker.changes(&folder, Change::Remove, "fetches objects into"),
                None => Ok(()),
            };
        }
        ("az", ["storage", "blob" | "file", "download", ..]) => {
            let files = option_values(args, &["-f", "--file", "--dest", "--path"]);
            return each(walker, &files, Change::Remove, "writes");
        }
        _ => None,
    };
    match tree.filter(local) {
        Some(folder) => walker.changes(folder, Change::Remove, "fetches objects into"),
        None => Ok(()),
    }
}

/// Options of cloud storage tools whose value is the next word.
const CLOUD_VALUED: &[&str] = &[
    "--profile",
    "--region",
    "--endpoint-url",
    "--exclude",
    "--include",
    "--storage-class",
    "--sse",
    "--acl",
    "-x",
    "-c",
    "--container-name",
    "-n",
    "--name",
    "-d",
    "--destination",
    "-s",
    "--source",
    "-f",
    "--file",
    "--account-name",
    "--account-key",
    "--pattern",
    "--config",
    "--project",
];

/// `gh`, `svn` and `kubectl` options whose value is the next word.
const REMOTE_COPY_VALUED: &[&str] = &[
    "-c",
    "--container",
    "--namespace",
    "--context",
    "--kubeconfig",
    "-R",
    "--repo",
    "-D",
    "--dir",
    "-O",
    "--output",
    "-p",
    "--pattern",
    "-n",
    "--name",
    "-A",
    "--archive",
    "-r",
    "--revision",
    "--depth",
    "--username",
    "--password",
    "--config-dir",
    "--config-option",
    "--native-eol",
];
