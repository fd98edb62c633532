package dev.statvar.internal;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Walks the bytecode reachable from update-path entry methods (following calls into classes
 * under a package prefix) and lists every instruction that compiles to a locked instruction or a
 * full fence on x86: monitors, synchronized methods, VarHandle read-modify-write or volatile-mode
 * stores and full fences, java.util.concurrent.atomic / locks calls, volatile field stores; plus
 * Thread.yield/sleep. Methods annotated {@link SlowPath} are the documented slow paths: the
 * scanner does not enter them (when asked to honour the annotation) and lists them instead.
 */
final class UpdatePathScanner {
    private static final Set<String> LOCKED_VARHANDLE_OPS = Set.of(
            "compareAndSet", "compareAndExchange", "compareAndExchangeAcquire", "compareAndExchangeRelease",
            "weakCompareAndSet", "weakCompareAndSetPlain", "weakCompareAndSetAcquire", "weakCompareAndSetRelease",
            "getAndSet", "getAndSetAcquire", "getAndSetRelease", "getAndAdd", "getAndAddAcquire", "getAndAddRelease",
            "getAndBitwiseOr", "getAndBitwiseOrAcquire", "getAndBitwiseOrRelease", "getAndBitwiseAnd",
            "getAndBitwiseAndAcquire", "getAndBitwiseAndRelease", "getAndBitwiseXor", "getAndBitwiseXorAcquire",
            "getAndBitwiseXorRelease", "setVolatile", "fullFence");

    /** The descriptor of {@link SlowPath}, as the class files record it. */
    static final String SLOW_PATH = "L" + SlowPath.class.getName().replace('.', '/') + ";";

    private final String packagePrefix;
    private final boolean honourSlowPaths;
    private final Map<String, ClassNode> classes = new HashMap<>();
    private final Set<String> slowPathsReached = new java.util.TreeSet<>();

    /**
     * @param packagePrefix   internal name prefix of classes to follow, e.g. {@code dev/statvar/}
     * @param honourSlowPaths whether methods annotated {@link SlowPath} are left out (else scanned too)
     */
    UpdatePathScanner(String packagePrefix, boolean honourSlowPaths) {
        this.packagePrefix = packagePrefix;
        this.honourSlowPaths = honourSlowPaths;
    }

    /** The {@link SlowPath} methods ({@code owner.name.desc}) the scans so far reached and did not enter. */
    Set<String> slowPathsReached() {
        return slowPathsReached;
    }

    /**
     * Whether the method carries {@link SlowPath} in its class file, or an adapter module's own
     * annotation of that simple name (statvar-micrometer's {@code dev.statvar.micrometer.SlowPath}:
     * core's is package-private).
     */
    static boolean isSlowPath(MethodNode mn) {
        if (mn.invisibleAnnotations != null) {
            for (AnnotationNode a : mn.invisibleAnnotations) {
                if (a.desc.equals(SLOW_PATH) || (a.desc.startsWith("Ldev/statvar/") && a.desc.endsWith("/SlowPath;"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Violations reachable from the entry methods ({@code owner.name.desc}); empty if the path is clean. */
    List<String> scan(List<String> entries) {
        List<String> violations = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Deque<String> work = new ArrayDeque<>(entries);
        while (!work.isEmpty()) {
            String m = work.pop();
            if (!seen.add(m)) {
                continue;
            }
            int dot1 = m.indexOf('.');
            int dot2 = m.indexOf('.', dot1 + 1);
            String owner = m.substring(0, dot1);
            String name = m.substring(dot1 + 1, dot2);
            String desc = m.substring(dot2 + 1);
            MethodNode mn = method(owner, name, desc);
            if (mn == null) {
                violations.add("cannot find " + m);
                continue;
            }
            if (honourSlowPaths && isSlowPath(mn)) {
                slowPathsReached.add(m);
                continue;
            }
            if ((mn.access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                violations.add(m + " is synchronized");
            }
            for (AbstractInsnNode insn : mn.instructions) {
                String where = owner + "." + name;
                if (insn.getOpcode() == Opcodes.MONITORENTER) {
                    violations.add(where + ": monitorenter");
                } else if (insn instanceof FieldInsnNode f
                        && (f.getOpcode() == Opcodes.PUTFIELD || f.getOpcode() == Opcodes.PUTSTATIC)
                        && isVolatile(f.owner, f.name)) {
                    violations.add(where + ": volatile store to " + f.owner + "." + f.name);
                } else if (insn instanceof MethodInsnNode call) {
                    if (call.owner.equals("java/lang/invoke/VarHandle") && LOCKED_VARHANDLE_OPS.contains(call.name)) {
                        violations.add(where + ": VarHandle." + call.name);
                    } else if (call.owner.startsWith("java/util/concurrent/atomic/")
                            || call.owner.startsWith("java/util/concurrent/locks/")) {
                        violations.add(where + ": calls " + call.owner + "." + call.name);
                    } else if (call.owner.equals("java/lang/Thread")
                            && (call.name.equals("yield") || call.name.equals("sleep") || call.name.equals("onSpinWait"))) {
                        violations.add(where + ": Thread." + call.name);
                    } else if (call.owner.startsWith(packagePrefix)) {
                        work.push(resolve(call.owner, call.name, call.desc));
                    }
                }
            }
        }
        return violations;
    }

    /** The class declaring the method (a call to an interface method is followed in every loaded implementation it names). */
    private String resolve(String owner, String name, String desc) {
        for (String c = owner; c != null; c = superOf(c)) {
            if (method(c, name, desc) != null) {
                return c + "." + name + "." + desc;
            }
        }
        return owner + "." + name + "." + desc;
    }

    private String superOf(String c) {
        ClassNode cn = load(c);
        return cn == null || cn.superName == null || !cn.superName.startsWith(packagePrefix) ? null : cn.superName;
    }

    private MethodNode method(String owner, String name, String desc) {
        ClassNode cn = load(owner);
        if (cn == null) {
            return null;
        }
        for (MethodNode mn : cn.methods) {
            if (mn.name.equals(name) && mn.desc.equals(desc) && (mn.access & Opcodes.ACC_ABSTRACT) == 0) {
                return mn;
            }
        }
        return null;
    }

    private boolean isVolatile(String owner, String field) {
        ClassNode cn = load(owner);
        if (cn == null) {
            return true; // unknown: assume the worst
        }
        for (FieldNode f : cn.fields) {
            if (f.name.equals(field)) {
                return (f.access & Opcodes.ACC_VOLATILE) != 0;
            }
        }
        return true;
    }

    private ClassNode load(String internalName) {
        return classes.computeIfAbsent(internalName, n -> {
            try (InputStream in = UpdatePathScanner.class.getClassLoader().getResourceAsStream(n + ".class")) {
                if (in == null) {
                    return null;
                }
                ClassNode cn = new ClassNode();
                new ClassReader(in).accept(cn, 0);
                return cn;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }
}
