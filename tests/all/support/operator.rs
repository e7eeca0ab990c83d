//! Running `tama` as an operator does: with a terminal on stdin and stderr.

use std::ffi::CStr;
use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Output, Stdio};

/// A new pseudo-terminal: (controller, the terminal's own side).
fn pty() -> (File, File) {
    // SAFETY: plain libc calls on descriptors this function owns; each
    // result is checked before it is used.
    unsafe {
        let controller = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(
            controller >= 0,
            "posix_openpt: {}",
            std::io::Error::last_os_error()
        );
        assert_eq!(libc::grantpt(controller), 0);
        assert_eq!(libc::unlockpt(controller), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(
            libc::ptsname_r(controller, name.as_mut_ptr(), name.len()),
            0
        );
        let path = CStr::from_ptr(name.as_ptr()).to_str().unwrap().to_string();
        let terminal = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .unwrap();
        (File::from(OwnedFd::from_raw_fd(controller)), terminal)
    }
}

/// Runs `tama args` in the scratch home with a terminal on stdin and
/// stderr; what it wrote to the terminal is returned as its stderr.
pub fn run_operator(home: &Path, args: &[&str]) -> Output {
    let (mut controller, terminal) = pty();
    let mut command = super::tama_in(home);
    command
        .args(args)
        .stdin(Stdio::from(terminal.try_clone().unwrap()))
        .stderr(Stdio::from(terminal))
        .stdout(Stdio::piped());
    let child = command.spawn().expect("tama starts");
    drop(command);
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut chunk = [0u8; 4096];
        // Reading ends with an error once no process holds the terminal open.
        while let Ok(n) = controller.read(&mut chunk) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&chunk[..n]);
        }
        seen
    });
    let mut output = child.wait_with_output().expect("tama ends");
    output.stderr = reader.join().unwrap();
    output
}
