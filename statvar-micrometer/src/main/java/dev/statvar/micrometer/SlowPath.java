package dev.statvar.micrometer;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a documented slow path of a meter's update (as statvar-core's own {@code SlowPath}): the
 * bytecode check of the update paths ({@code MeterUpdatePathTest}) does not follow calls into it and
 * lists it instead, so nothing else reachable from an update may execute a locked instruction.
 * CLASS retention: no run-time cost.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
@interface SlowPath {
    /** When the update takes this path, and what it may do there. */
    String value();
}
