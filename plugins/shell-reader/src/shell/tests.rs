use super::*;

fn words(source: &str) -> Vec<Vec<String>> {
    let program = parse(source).expect("parses");
    let mut out = Vec::new();
    collect(&program, program.list, &mut out);
    out
}

fn collect(program: &Program<'_>, list: List, out: &mut Vec<Vec<String>>) {
    for pipeline in program.pipelines(list) {
        for command in &pipeline.commands {
            let compound = match command {
                Command::Simple(simple) => {
                    out.push(program.words(simple.words).iter().map(text).collect());
                    continue;
                }
                Command::Compound(compound) => compound,
                Command::Function(function) => match function.body.as_ref() {
                    Command::Compound(compound) => compound,
                    _ => continue,
                },
            };
            for list in &compound.lists {
                collect(program, *list, out);
            }
        }
    }
}

fn text(word: &Word<'_>) -> String {
    word.parts()
        .iter()
        .map(|part| match part {
            Part::Text { text, .. } => text.to_string(),
            Part::Parameter {
                name,
                operator: ParameterOperator::Indirect,
                ..
            } => format!("${{!{name}}}"),
            Part::Parameter {
                name,
                operator: ParameterOperator::Element(index),
                ..
            } => format!("${{{name}[{index}]}}"),
            Part::Parameter {
                name,
                operator: ParameterOperator::Slice { offset, length, .. },
                ..
            } => match length {
                Some(length) => format!("${{{name}:{offset}:{length}}}"),
                None => format!("${{{name}:{offset}}}"),
            },
            Part::Parameter { name, .. } => format!("${name}"),
            Part::Substitution { .. } => "$(…)".to_owned(),
            Part::ProcessSubstitution { .. } => "<(…)".to_owned(),
            Part::Backquoted { source, .. } => format!("`{source}`"),
            Part::Opaque { .. } => "$?".to_owned(),
        })
        .collect()
}

#[test]
fn quotes_and_escapes_are_removed() {
    assert_eq!(
        words(r#"g\it "comm"'it' $'--no-\x76erify' --no-"verify""#),
        [["git", "commit", "--no-verify", "--no-verify"]]
    );
}

#[test]
fn an_indirection_names_its_variable_and_other_bang_forms_stay_unknown() {
    assert_eq!(
        words(r#"eval "${!r}" ${!#} ${!p*} ${!a[@]} ${!r:-x}"#),
        [["eval", "${!r}", "${!#}", "$?", "$?", "$?"]]
    );
}

#[test]
fn an_element_at_an_arithmetic_index_is_read_and_other_subscripts_stay_unknown() {
    assert_eq!(
        words(
            r#"${a[0]} "${a[12]}" ${a[@]} ${a[$i]} ${a[i+1]} ${a[0]:-x} ${a[]} ${#a[0]} ${a[$(f)]}"#
        ),
        [[
            "${a[0]}",
            "${a[12]}",
            "$a",
            "${a[$i]}",
            "${a[i+1]}",
            "$?",
            "$?",
            "$?",
            "$?"
        ]]
    );
}

#[test]
fn slices_with_arithmetic_bounds_are_read() {
    assert_eq!(
        words(r#"${v:1} ${v: -1:2} "${a[@]:i}" ${@:2} ${v:-x} ${v:=x} ${v:$(f)}"#),
        [["${v:1}", "${v: -1:2}", "${a:i}", "${@:2}", "$v", "$v", "$?"]]
    );
}

#[test]
fn line_continuations_join_words() {
    assert_eq!(
        words("git commit \\\n --no-verify"),
        [["git", "commit", "--no-verify"]]
    );
    assert_eq!(words("gi\\\nt status"), [["git", "status"]]);
}

#[test]
fn lists_and_compounds_are_walked() {
    let source = "a && b || c; d & e | f\n(g); { h; }; if i; then j; elif k; then l; else m; fi; \
                  while n; do o; done; for x in p q; do r; done; case s in t|u) v;; *) w;; esac";
    let names: Vec<String> = words(source)
        .into_iter()
        .map(|words| words[0].clone())
        .collect();
    assert_eq!(
        names,
        [
            "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "r", "v",
            "w"
        ]
    );
}

#[test]
fn comments_are_skipped_but_hash_inside_words_is_text() {
    assert_eq!(
        words("echo a#b # git commit -n\nls"),
        [vec!["echo", "a#b"], vec!["ls"]]
    );
}

#[test]
fn heredoc_bodies_are_read_after_the_line() {
    let program = parse("cat > f <<EOF && echo done\ngit commit -n\nEOF\nls").expect("parses");
    assert_eq!(program.heredocs.len(), 1);
    assert_eq!(text(&program.heredocs[0].body), "git commit -n\n");
    assert_eq!(program.list.len(), 3);
    assert_eq!(program.pipelines(program.list).len(), 3);
}

#[test]
fn quoted_heredoc_delimiters_keep_the_body_literal() {
    let program = parse("cat <<'EOF'\n$(rm x)\nEOF").expect("parses");
    assert!(matches!(
        program.heredocs[0].body.parts(),
        [Part::Text { .. }]
    ));
    let program = parse("cat <<-EOF\n\t$(rm x)\n\tEOF").expect("parses");
    assert!(
        program.heredocs[0]
            .body
            .parts()
            .iter()
            .any(|part| matches!(part, Part::Substitution { .. }))
    );
}

#[test]
fn functions_are_parsed() {
    let program = parse("f() { git commit \"$@\"; }; function g { ls; }; f -n").expect("parses");
    let pipelines = program.pipelines(program.list);
    assert!(matches!(pipelines[0].commands[0], Command::Function(_)));
    assert!(matches!(pipelines[1].commands[0], Command::Function(_)));
}

#[test]
fn substitutions_nest() {
    let program =
        parse(r#"echo "$(echo `echo \`ls\``) $(case x in a) b;; esac)""#).expect("parses");
    assert_eq!(program.list.len(), 1);
}

#[test]
fn syntax_errors_are_reported() {
    for (source, error) in [
        ("git commit -m 'x", SyntaxError::Unclosed("single quote")),
        ("git commit -m \"x", SyntaxError::Unclosed("double quote")),
        ("echo $(git commit", SyntaxError::Unclosed("$(")),
        ("echo `git commit", SyntaxError::Unclosed("backquote")),
        ("echo ${x", SyntaxError::Unclosed("${")),
        ("(git commit", SyntaxError::Unclosed("(")),
        ("{ git commit;", SyntaxError::Unclosed("{")),
        ("if true; then ls", SyntaxError::Unclosed("if")),
        ("git add &&", SyntaxError::Incomplete),
        ("echo >", SyntaxError::MissingRedirectTarget),
    ] {
        assert_eq!(parse(source).err(), Some(error), "{source}");
    }
    assert!(matches!(parse("ls )"), Err(SyntaxError::Unexpected(_))));
    assert!(matches!(parse("fi"), Err(SyntaxError::Unexpected(_))));
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let source = format!("{}ls{}", "$(".repeat(5000), ")".repeat(5000));
    assert_eq!(parse(&source).err(), Some(SyntaxError::TooDeep));
    let source = format!("{}ls{}", "( ".repeat(5000), ")".repeat(5000));
    assert_eq!(parse(&source).err(), Some(SyntaxError::TooDeep));
}

#[test]
fn ansi_c_escapes_decode() {
    assert_eq!(
        decode_escapes(r"\x2d-no\055verify\n\t\\\'"),
        "--no-verify\n\t\\'"
    );
    assert_eq!(decode_escapes(r"\u00e9\x"), "é\\x");
}

/// Where the reader of a command's plain words stops and hands over: at a
/// redirection's descriptor, a comment, an assignment before the command,
/// a quote, a line continuation, and a function's parentheses.
#[test]
fn plain_words_hand_over_where_the_general_reader_must_decide() {
    let cases: [(&str, &[&str]); 7] = [
        ("a b 2>f c", &["a", "b", "c"]),
        ("a b>f c", &["a", "b", "c"]),
        ("a b #c d", &["a", "b"]),
        ("A=1 B=2 c d=3", &["c", "d=3"]),
        ("a 'b c' d", &["a", "b c", "d"]),
        ("a\\\n b", &["a", "b"]),
        ("f () { g; }", &["g"]),
    ];
    for (source, expected) in cases {
        assert_eq!(words(source), [expected.to_vec()], "{source}");
    }
}

#[test]
fn pipelines_tell_how_they_are_joined() {
    let joined = |source: &str| {
        let program = parse(source).expect("parses");
        program
            .pipelines(program.list)
            .iter()
            .map(|pipeline| pipeline.joined)
            .collect::<Vec<_>>()
    };
    use Joined::*;
    assert_eq!(
        joined("cd /tmp && make || exit; ls | wc\necho"),
        [First, And, Or, First, First]
    );
    assert_eq!(joined("a &&\n b"), [First, And]);
    assert_eq!(joined("plain words"), [First]);
}

#[test]
fn a_redirection_names_the_descriptor_it_redirects() {
    let program = parse("cmd 3< a <b >c 2>&1 <<<x {fd}<d <&3 &> e").expect("parses");
    let pipeline = &program.pipelines(program.list)[0];
    let Command::Simple(simple) = &pipeline.commands[0] else {
        panic!("a simple command");
    };
    let fds: Vec<Option<u32>> = simple.redirects.iter().map(|r| r.fd).collect();
    assert_eq!(
        fds,
        [
            Some(3),
            Some(0),
            Some(1),
            Some(2),
            Some(0),
            None,
            Some(0),
            Some(1)
        ]
    );
}
