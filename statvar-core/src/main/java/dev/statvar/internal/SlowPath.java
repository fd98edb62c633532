package dev.statvar.internal;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method that an update may reach but that is allowed to take a lock, allocate or wait:
 * a documented slow path (a thread's first update, growth after new registrations, a table
 * collision, a virtual thread, bad input). Everything else reachable from an update method must
 * execute no locked instruction; {@code UpdatePathTest} checks that on the bytecode and follows
 * every call except into methods carrying this annotation, so a rename or a refactor cannot
 * quietly widen what escapes the check.
 *
 * <p>Kept in the class files (CLASS retention) for the bytecode check; no run-time cost.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
@interface SlowPath {
    /** When the update takes this path, and what it may do there. */
    String value();
}
