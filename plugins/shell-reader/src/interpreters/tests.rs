use super::*;

fn values(code: &str, language: Language) -> Vec<String> {
    strings(code, language).values
}

#[test]
fn languages_are_known_by_name_and_version() {
    assert_eq!(Language::of("/usr/bin/python3.12"), Some(Language::Python));
    assert_eq!(Language::of("nodejs"), Some(Language::JavaScript));
    assert_eq!(Language::of("gawk"), Some(Language::Awk));
    assert_eq!(Language::of("git"), None);
}

#[test]
fn code_comes_from_options_scripts_or_standard_input() {
    use Source::*;
    assert_eq!(sources(Language::Python, &["-c", "x"]), [Text("x")]);
    assert_eq!(sources(Language::Python, &["-cx"]), [Text("x")]);
    assert_eq!(
        sources(Language::Python, &["-W", "ignore", "s.py", "-c"]),
        [File("s.py")]
    );
    assert_eq!(sources(Language::Python, &["-"]), [Stdin]);
    assert_eq!(sources(Language::Python, &["-u"]), [Stdin]);
    assert_eq!(sources(Language::Python, &["-m", "pip"]), []);
    assert_eq!(
        sources(Language::Python, &["run", "python", "-c", "x"]),
        [Text("x")]
    );
    assert_eq!(sources(Language::JavaScript, &["--eval=x"]), [Text("x")]);
    assert_eq!(
        sources(Language::JavaScript, &["run", "a.ts"]),
        [File("a.ts")]
    );
    assert_eq!(
        sources(Language::Perl, &["-lne", "x", "-e", "y"]),
        [Text("x"), Text("y")]
    );
    assert_eq!(
        sources(Language::Awk, &["-F", ":", "{print}", "f"]),
        [Text("{print}")]
    );
    assert_eq!(
        sources(Language::Awk, &["-f", "prog.awk", "f"]),
        [File("prog.awk")]
    );
    assert_eq!(
        sources(Language::Lisp, &["--batch", "-l", "init.el", "--eval", "x"]),
        [File("init.el"), Text("x")]
    );
    assert_eq!(sources(Language::Lisp, &["notes.txt"]), []);
}

#[test]
fn literals_are_joined_and_decoded() {
    assert_eq!(
        values(
            r#"os.system("git commit --no-" + "verify")"#,
            Language::Python
        ),
        ["git commit --no-verify"]
    );
    assert_eq!(values(r#"'a' "b" '''c'''"#, Language::Python), ["abc"]);
    assert_eq!(values(r#""\x67it" . 'x\n'"#, Language::Perl), ["gitx\\n"]);
    assert_eq!(values(r#"r"\x67""#, Language::Python), [r"\x67"]);
    // An interpolated literal is its text.
    assert_eq!(
        values("`git ${'x'}` // \"not\"", Language::JavaScript),
        ["git x"]
    );
    assert!(values(r#"b64decode("LW4=").decode()"#, Language::Python).contains(&"-n".to_owned()));
    assert_eq!(
        values(r#""git commit -".lc("N")." -m x""#, Language::Perl),
        ["git commit -n -m x"]
    );
    assert_eq!(values("print(\"a\") # don't", Language::Python), ["a"]);
}

#[test]
fn names_assigned_strings_are_filled_in() {
    let code = r#"f = "-n"; f += "o"; os.system(f"git commit {f}" + " " + f)"#;
    assert_eq!(
        values(code, Language::Python).last().unwrap(),
        "git commit -no -no"
    );
    let code = r#"my $o = "--no-verify"; system("git commit $o"); system("x ${o}")"#;
    assert_eq!(
        values(code, Language::Perl)[1..],
        ["git commit --no-verify", "x --no-verify"]
    );
    let code = "const o = '-n'; execSync(`git commit ${o} ${unknown}`)";
    assert_eq!(values(code, Language::JavaScript)[1], "git commit -n ");
    assert_eq!(values(r##"x = "#{y}""##, Language::Ruby), [""]);
}

#[test]
fn runs_of_values_are_argument_vectors() {
    let read = strings(
        r#"subprocess.run(["git", "commit", "-n"], check=True); os.execvp("git", ["git", "push"])"#,
        Language::Python,
    );
    assert!(
        read.lists
            .contains(&vec!["git".into(), "commit".into(), "-n".into()])
    );
    assert!(read.lists.contains(&vec!["git".into(), "push".into()]));
}

#[test]
fn names_set_to_values_are_pairs() {
    for (code, language) in [
        (r#"os.environ["HUSKY"] = "0""#, Language::Python),
        (r#"run(env={**os.environ, "HUSKY": "0"})"#, Language::Python),
        ("process.env.HUSKY = '0'", Language::JavaScript),
        ("$ENV{HUSKY}=0; system('git commit')", Language::Perl),
        (r#"ENV["HUSKY"] = "0""#, Language::Ruby),
        (r#"putenv("HUSKY=0"); putenv("HUSKY", "0")"#, Language::Php),
    ] {
        let pairs = strings(code, language).pairs;
        assert!(
            pairs.contains(&("HUSKY".into(), "0".into())),
            "{code}: {pairs:?}"
        );
    }
}

#[test]
fn code_that_runs_programs_is_told_apart() {
    assert!(runs_programs("import os; os.system('x')"));
    assert!(runs_programs("require('child_process').execSync('x')"));
    assert!(!runs_programs("print(open('f').read())"));
}

#[test]
fn base64_and_hex_values_are_followed_by_their_text() {
    let read = strings(
        r#"exec(b64decode("Z2l0IHN0YXR1cw==")); x = bytes.fromhex("67697420737461747573")"#,
        Language::Python,
    );
    assert_eq!(
        read.values
            .iter()
            .filter(|value| *value == "git status")
            .count(),
        2
    );
    assert!(!read.values.iter().any(|value| value.contains('\u{0}')));
}

#[test]
fn strings_that_are_code_are_read_again() {
    let read = strings(r#"exec("import os; os.system('x')")"#, Language::Python);
    assert!(read.runs_programs);
    assert_eq!(
        read.nested_code().collect::<Vec<_>>(),
        ["import os; os.system('x')"]
    );
    let joined = strings(r#"getattr(os, "sys" + "tem")("x")"#, Language::Python);
    assert!(joined.runs_programs);
}

#[test]
fn values_doubled_by_assignment_stay_bounded() {
    let code = format!("a = 'xx'\n{}print(a)", "a += a\n".repeat(64));
    let read = strings(&code, Language::Python);
    assert!(read.values.iter().all(|value| value.len() <= 1 << 16));
}

#[test]
fn any_cut_of_tricky_code_is_read_without_panicking() {
    let snippets = [
        r#"f"{x}{{" + '\x67é' """a"b""" r'\'' `${a}` "#,
        r#"my $x = "$y${z}@w"; system("git", "commit") # c"#,
        r##"%x(ls) "#{a}" '\\' "\u00e9\U0001F600" /* "##,
        "a += a\nb = 'Z2l0IHN0YXR1cw==' . \"\\",
        "qw(é b) qq{a{$x}} q #c\n %w[x é] %Q|#{y}| %(z) % q",
    ];
    let languages = [
        Language::Python,
        Language::JavaScript,
        Language::Ruby,
        Language::Perl,
        Language::Php,
        Language::Awk,
        Language::Lua,
        Language::R,
        Language::Julia,
        Language::AppleScript,
        Language::Lisp,
        Language::Tcl,
        Language::Compiled,
    ];
    for snippet in snippets {
        for (end, _) in snippet.char_indices().chain([(snippet.len(), ' ')]) {
            for language in languages {
                let read = strings(&snippet[..end], language);
                let _ = read.commands().count();
                let _ = sources(language, &[&snippet[..end]]);
            }
        }
    }
}

#[test]
fn lua_r_julia_and_applescript_strings_are_read() {
    assert_eq!(Language::of("Rscript"), Some(Language::R));
    assert_eq!(
        values(r#"os.execute("git commit " .. "-n")"#, Language::Lua),
        ["git commit -n"]
    );
    assert_eq!(
        values(r#"system(paste("git", "status")) # x"#, Language::R),
        ["git", "status"]
    );
    assert_eq!(
        values(r#"o = "-n"; run(`git commit $o -m x`)"#, Language::Julia),
        ["-n", "git commit -n -m x"]
    );
    assert_eq!(
        values(
            r#"do shell script "git commit " & "-n" -- it's"#,
            Language::AppleScript
        ),
        ["git commit -n"]
    );
    assert_eq!(Language::of("emacs"), Some(Language::Lisp));
    assert_eq!(
        values(r#"(delete-file "a\"b") ; it's 'x"#, Language::Lisp),
        ["a\"b"]
    );
}

#[test]
fn slices_and_rot13_are_read() {
    let python = |code: &str| values(code, Language::Python);
    assert_eq!(python("rmtree('~/.' + 'xtxaxmxa'[1::2])"), ["~/.tama"]);
    assert_eq!(python("p = 'amatx'[3::-1]"), ["tama"]);
    assert_eq!(python("p = 'hello'[1:-1]"), ["ell"]);
    assert_eq!(python("p = 'hello'[-2:]"), ["lo"]);
    assert_eq!(
        python("codecs.decode('--ab-irevsl', 'rot13')"),
        ["--no-verify"]
    );
    assert_eq!(python("codecs.encode('.gnzn', 'rot_13')"), [".tama"]);
}

#[test]
fn characters_given_by_code_and_reversed_literals_are_read() {
    assert_eq!(
        values(
            r#"shutil.rmtree("/root/" + chr(46) + "tama")"#,
            Language::Python
        ),
        ["/root/.tama"]
    );
    assert_eq!(
        values(
            "fs.rmSync(home + '/' + String.fromCharCode(46, 0x74, 97, 109, 97))",
            Language::JavaScript
        ),
        ["/.tama"]
    );
    assert_eq!(
        values(
            r#"rmtree($ENV{HOME} . "/" . chr(46) . "tama")"#,
            Language::Perl
        ),
        ["/.tama"]
    );
    assert_eq!(
        values(r#"shutil.rmtree("amat./toor/"[::-1])"#, Language::Python),
        ["/root/.tama"]
    );
    // A call whose argument is not a number stays unknown.
    assert_eq!(values("x = chr(n) + 'a'", Language::Python), ["a"]);
}

#[test]
fn paths_read_backwards_are_read() {
    assert_eq!(
        values(
            "os.system(''.join(reversed('amat./~ fr- mr')))",
            Language::Python
        ),
        ["rm -rf ~/.tama"]
    );
    assert_eq!(
        values(r#"system("amat./~ fr- mr".reverse)"#, Language::Ruby),
        ["rm -rf ~/.tama"]
    );
    assert_eq!(
        values(
            "execSync('amat./~ fr- mr'.split('').reverse().join(''))",
            Language::JavaScript
        ),
        ["rm -rf ~/.tama"]
    );
    assert_eq!(
        values(r#"system(reverse("amat./~ fr- mr"))"#, Language::Perl),
        ["rm -rf ~/.tama"]
    );
    // Joining a string's characters with a separator puts it between them.
    assert_eq!(values("'-'.join('abc')", Language::Python), ["a-b-c"]);
}

#[test]
fn paths_assembled_by_methods_and_formatting_are_read() {
    let python = |code| values(code, Language::Python);
    assert_eq!(python("rmtree('~/.%s' % 'tama')"), ["~/.tama"]);
    assert_eq!(python("rmtree('%s/.%s' % (home, 'tama'))"), ["/.tama"]);
    assert_eq!(python("rmtree('~/.{}'.format('tama'))"), ["~/.tama"]);
    assert_eq!(
        python("rmtree('{}/.{x}'.format(os.path.expanduser('~'), x='tama'))"),
        ["/.tama"]
    );
    assert_eq!(
        python("rmtree('~/.' + ''.join(['t', 'a', 'm', 'a']))"),
        ["~/.tama"]
    );
    assert_eq!(python("rmtree('~/.' + 'TAMA'.lower())"), ["~/.tama"]);
    assert_eq!(
        python("n = 'amat'; rmtree('~/.' + n[::-1])"),
        ["amat", "~/.tama"]
    );
    assert_eq!(
        python("rmtree('~/.' + bytes([116, 97, 109, 97]).decode())"),
        ["~/.tama"]
    );
    assert_eq!(
        values(
            "fs.rmSync(home + '/.' + ['t', 'a', 'm', 'a'].join(''))",
            Language::JavaScript
        ),
        ["/.tama"]
    );
    assert_eq!(
        values(
            "FileUtils.rm_rf(Dir.home + '/.' + 'TAMA'.downcase)",
            Language::Ruby
        ),
        ["/.tama"]
    );
    // What is not a string method leaves the value as it was.
    assert_eq!(python("print('a'.count('b'))"), ["a", "b"]);
    // Argument vectors stay lists.
    assert_eq!(
        strings("run(['git', 'commit'])", Language::Python).lists,
        [["git", "commit"]]
    );
}

#[test]
fn deeply_nested_lists_are_read_within_bounds() {
    let code = format!("{}'a'{}", "[".repeat(20_000), "]".repeat(20_000));
    assert_eq!(values(&code, Language::Python), ["a"]);
    let code = format!("x = {}", "'a'.join([".repeat(5_000));
    assert!(values(&code, Language::Python).len() <= 5_000);
}

#[test]
fn awk_runs_what_it_pipes_to_or_from_a_command() {
    let runs = |code| strings(code, Language::Awk).runs_programs;
    assert!(runs(r#"BEGIN{print "ls" | "sh"}"#));
    assert!(runs(r#"BEGIN{"date" | getline now}"#));
    assert!(runs(r#"BEGIN{print "ls" |& "bash"}"#));
    assert!(!runs("$1 > 3 || $2 < 1 {print}"));
}

#[test]
fn compiled_source_is_read_from_every_operand_or_the_input() {
    use Source::*;
    assert_eq!(Language::of("gcc-13"), Some(Language::Compiled));
    assert_eq!(Language::of("tclsh8.6"), Some(Language::Tcl));
    assert_eq!(Language::of_script("main.rs"), None);
    assert_eq!(
        sources(Language::Compiled, &["-x", "c", "-", "-o", "/tmp/a"]),
        [Stdin]
    );
    assert_eq!(
        sources(Language::Compiled, &["run", "a.go", "b.go"]),
        [File("run"), File("a.go"), File("b.go")]
    );
    assert_eq!(sources(Language::Compiled, &["--version"]), []);
    assert_eq!(
        values(
            r#"fn f<'a>(x: &'a str) { remove_dir_all("/t"); } // "no""#,
            Language::Compiled
        ),
        ["/t"]
    );
    assert_eq!(
        values("exec.Command(`sh`, \"-c\", \"ls\")", Language::Compiled),
        ["sh", "-c", "ls"]
    );
    assert!(changes_files("int f = open(p, o_wronly | o_trunc);"));
}

#[test]
fn a_run_naming_its_program_twice_is_read_from_the_name_too() {
    let read = strings(
        r#"os.execl("/usr/bin/git", "git", "commit", "-n")"#,
        Language::Python,
    );
    let commands: Vec<String> = read.commands().collect();
    assert!(
        commands.contains(&"'git' 'commit' '-n'".to_owned()),
        "{commands:?}"
    );
}

/// `read` holds the argument list `git commit -n -m x`.
fn assert_lists_git_commit(read: &Strings) {
    let list = ["git", "commit", "-n", "-m", "x"].map(String::from);
    assert!(read.lists.contains(&list.to_vec()), "{read:?}");
}

#[test]
fn perl_quote_like_operators_are_strings_and_word_lists() {
    assert_eq!(
        values("unlink q(/t/a), qq{/t/$n}, q!x!", Language::Perl),
        ["/t/a", "/t/", "x"]
    );
    assert_eq!(
        values("my $d = q(.git); unlink qq($d/hooks)", Language::Perl),
        [".git", ".git/hooks"]
    );
    let read = strings("system qw(git commit -n -m x)", Language::Perl);
    assert!(read.runs_programs);
    assert_lists_git_commit(&read);
    // Brackets nest; a name that is not an operator stays a name.
    assert_eq!(
        values("qx{git log --format={x}}", Language::Perl),
        ["git log --format={x}"]
    );
    assert_eq!(
        values("my %h = (q => 'v', qw => 'w')", Language::Perl),
        ["v", "w"]
    );
    assert!(strings("qx(rm -rf x)", Language::Perl).runs_programs);
}

#[test]
fn ruby_percent_literals_are_strings_and_word_lists() {
    assert_lists_git_commit(&strings("system %w(git commit -n -m x)", Language::Ruby));
    assert_eq!(
        values(
            "d = '.git'; File.delete %Q[#{d}/hooks/pre-commit]; %x(ls)",
            Language::Ruby
        ),
        [".git", ".git/hooks/pre-commit", "ls"]
    );
    assert_eq!(values("x = %(a b)", Language::Ruby), ["a b"]);
    // Modulo is not a literal.
    assert_eq!(values("puts 7 %(3)", Language::Ruby), Vec::<String>::new());
}

#[test]
fn a_piped_open_is_read_as_its_command() {
    let commands =
        |code: &str| -> Vec<String> { strings(code, Language::Perl).commands().collect() };
    assert!(
        commands(r#"open(P, "git commit -n -m x |")"#).contains(&"git commit -n -m x".to_owned())
    );
    assert!(commands(r#"open(P, "| git commit -n")"#).contains(&"git commit -n".to_owned()));
    assert!(strings("open P, q(|git commit -n)", Language::Perl).runs_programs);
    assert!(
        commands(r#"open(my $p, "-|", "git", "commit", "-n")"#)
            .contains(&"'git' 'commit' '-n'".to_owned())
    );
}

#[test]
fn what_code_prints_is_each_of_its_strings() {
    let printed = |code: &str, language: Language, args: &[&str]| {
        prints(code, language, args)
            .then(|| strings(code, language).printed())
            .flatten()
    };
    assert_eq!(
        printed(r#"print("git commit " + "-n")"#, Language::Python, &["-c"]),
        Some("git commit -n\n".to_owned())
    );
    assert_eq!(
        printed(
            r#"console.log("-n"); console.log(`x`)"#,
            Language::JavaScript,
            &["-e"]
        ),
        Some("-n\nx\n".to_owned())
    );
    assert_eq!(
        printed(r#""--no-" + "verify""#, Language::JavaScript, &["-p"]),
        Some("--no-verify\n".to_owned())
    );
    // Code that prints nothing it spells, or prints nothing.
    assert_eq!(
        printed("import sys; print(sys.argv[1])", Language::Python, &["-c"]),
        None
    );
    assert_eq!(
        printed(r#"open("x", "w")"#, Language::Python, &["-c"]),
        None
    );
}
