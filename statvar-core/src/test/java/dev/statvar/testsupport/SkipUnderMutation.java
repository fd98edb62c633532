package dev.statvar.testsupport;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Disables the test methods named in the system property {@code statvar.pit.skip}
 * ({@code SimpleClassName#method}, comma-separated): tests whose verdict rests on retained heap or on
 * wall-clock time, which a mutation run (2 PIT minions on 2 cores, coverage probes in every class)
 * would make flaky, in test classes whose other tests PIT should still run. PIT can exclude test
 * classes but not single methods, hence this condition.
 *
 * <p>Inert in a normal build: it is registered through {@code META-INF/services} and so is loaded only
 * when JUnit's extension auto-detection is on, which the {@code pit} profile of statvar-core's pom turns
 * on (with the list) in PIT's child JVMs alone. Without the property it enables every test.
 */
public final class SkipUnderMutation implements ExecutionCondition {

    static final String PROPERTY = "statvar.pit.skip";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<Method> method = context.getTestMethod();
        if (method.isEmpty()) {
            return ConditionEvaluationResult.enabled("not a test method");
        }
        String key = method.get().getDeclaringClass().getSimpleName() + "#" + method.get().getName();
        return skipped().contains(key)
                ? ConditionEvaluationResult.disabled(key + " is listed in " + PROPERTY + " (heap or timing: flaky under mutation)")
                : ConditionEvaluationResult.enabled(key + " is not listed in " + PROPERTY);
    }

    static Set<String> skipped() {
        String list = System.getProperty(PROPERTY, "");
        return Arrays.stream(list.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }
}
