;; Hostile test gate: tries to carry state from one event to the next. It
;; counts in a global the events its instance evaluated and refuses from the
;; second on, so a test sees whether one instance answered two events. It
;; imports nothing and so makes no WASI call, as the built-in gates: only
;; its being no built-in keeps its instance from a second event.
;;
;; Written in the component text format, as `many-memories` is: a compiler's
;; component built without `std` needs an allocator crate the other test
;; plugins' `std` builds conflict with. The test plugins' build turns it
;; into `hostile_remember.wasm`.
(component
  (core module $gate
    (memory (export "memory") 1)
    ;; Bytes 0..16 are the answer `ok(pass)` (and `ok` from validate-config):
    ;; all zero. Bytes 16..32 are `ok(refuse(message))`, the message at 64.
    (data (i32.const 16) "\00\00\00\00\01\00\00\00\40\00\00\00\28\00\00\00")
    (data (i32.const 64) "this instance remembers an earlier event")
    ;; Events this instance evaluated.
    (global $seen (mut i32) (i32.const 0))
    (global $next (mut i32) (i32.const 1024))

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

    (func (export "evaluate") (param $arguments i32) (result i32)
      (global.set $seen (i32.add (global.get $seen) (i32.const 1)))
      (if (result i32) (i32.gt_u (global.get $seen) (i32.const 1))
        (then (i32.const 16))
        (else (i32.const 0)))))

  (core instance $gate (instantiate $gate))

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
