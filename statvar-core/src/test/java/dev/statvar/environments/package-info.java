/**
 * Stress tests of statvar-core in environments users meet daily: a collector racing a writer
 * (min/max exactness), Thread subclasses overriding getId(), the JDK 21+ common pool, class
 * loaders of web applications and plugins, a collector beside manual collects, and thread
 * churn. Each asserts exactness (nothing lost or doubled) and bounded memory or time, each is
 * bounded in time, and all are tagged {@code environments}:
 * <pre>
 * mvn -o -pl statvar-core test -Dgroups=environments -Dtest='dev.statvar.environments.**' -Dsurefire.failIfNoSpecifiedTests=false
 * JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn ... (the same; CommonPoolTest runs on JDK 21+ only)
 * </pre>
 * They print their figures to standard output (target/surefire-reports/*.xml, system-out).
 */
package dev.statvar.environments;
