;; Hostile test gate: a component of three core instances, each with its own
;; linear memory. `evaluate` grows each memory to 24 MiB: any one of them, or
;; any two together, stay under the 64 MiB memory bound of an evaluation; all
;; three together exceed it. A host that bounds each memory alone lets the
;; call finish and pass; a host that bounds the evaluation stops it.
;;
;; Written in the component text format because a compiler gives a component
;; one memory; the test plugins' build turns it into `hostile_many_memories.wasm`.
(component
  ;; A core module that holds nothing but a memory it can grow.
  (core module $grower
    (memory 1)
    ;; Grows this memory to `pages` pages of 64 KiB; -1 when it cannot.
    (func (export "grow-to") (param $pages i32) (result i32)
      (memory.grow (i32.sub (local.get $pages) (memory.size)))))

  ;; The gate itself: the canonical ABI's memory and allocator, and the two exports.
  (core module $gate
    (import "second" "grow-to" (func $grow-second (param i32) (result i32)))
    (import "third" "grow-to" (func $grow-third (param i32) (result i32)))
    (memory (export "memory") 1)
    ;; Bytes 0..16 are the answers' return area and stay zero, which reads
    ;; as `ok` from validate-config and `ok(pass)` from evaluate.
    (global $next (mut i32) (i32.const 16))

    ;; A bump allocator for what the host hands in; it never frees.
    (func (export "cabi_realloc") (param $old i32) (param $old-size i32) (param $align i32) (param $size i32) (result i32)
      (local $at i32)
      (local $end i32)
      (local.set $at
        (i32.and
          (i32.add (global.get $next) (i32.sub (local.get $align) (i32.const 1)))
          (i32.sub (i32.const 0) (local.get $align))))
      (local.set $end (i32.add (local.get $at) (local.get $size)))
      (if (i32.gt_u (local.get $end) (i32.shl (memory.size) (i32.const 16)))
        (then
          (if (i32.eq
                (memory.grow
                  (i32.sub (i32.shr_u (i32.add (local.get $end) (i32.const 0xffff)) (i32.const 16)) (memory.size)))
                (i32.const -1))
            (then unreachable))))
      (global.set $next (local.get $end))
      (local.get $at))

    (func (export "validate-config") (param $config i32) (param $config-len i32) (result i32)
      (i32.const 0))

    ;; 384 pages are 24 MiB.
    (func (export "evaluate") (param $arguments i32) (result i32)
      (if (i32.eq (memory.grow (i32.sub (i32.const 384) (memory.size))) (i32.const -1))
        (then unreachable))
      (if (i32.eq (call $grow-second (i32.const 384)) (i32.const -1))
        (then unreachable))
      (if (i32.eq (call $grow-third (i32.const 384)) (i32.const -1))
        (then unreachable))
      (i32.const 0)))

  (core instance $second (instantiate $grower))
  (core instance $third (instantiate $grower))
  (core instance $gate
    (instantiate $gate
      (with "second" (instance $second))
      (with "third" (instance $third))))

  ;; The types of the `gate` world in wit/gate.wit.
  (type $event-type
    (record
      (field "name" string)
      (field "session-id" (option string))
      (field "agent-id" (option string))
      (field "tool-name" (option string))
      (field "tool-input" (option string))
      (field "payload" string)))
  (export $event "event" (type $event-type))
  (type $verdict-type (variant (case "pass") (case "refuse" string)))
  (export $verdict "verdict" (type $verdict-type))
  (type $gate-error-type
    (variant (case "invalid-input" string) (case "invalid-config" string) (case "failed" string)))
  (export $gate-error "gate-error" (type $gate-error-type))

  (func (export "validate-config") (param "config" string) (result (result (error string)))
    (canon lift (core func $gate "validate-config") (memory $gate "memory") (realloc (func $gate "cabi_realloc"))))
  (func (export "evaluate") (param "event" $event) (param "config" string) (result (result $verdict (error $gate-error)))
    (canon lift (core func $gate "evaluate") (memory $gate "memory") (realloc (func $gate "cabi_realloc")))))
