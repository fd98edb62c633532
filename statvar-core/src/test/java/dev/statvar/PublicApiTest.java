package dev.statvar;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The public API names no type of {@code dev.statvar.internal}: no public or protected member,
 * supertype or signature of a public class of {@code dev.statvar} does, so what a user can reach
 * is the API, on the class path as well as on the module path (where the package is not
 * exported at all).
 */
class PublicApiTest {

    /** The public types of package dev.statvar, from the compiled classes (a directory here). */
    private static List<Class<?>> apiTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Counter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.list(root.resolve("dev/statvar"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.endsWith(".class") && !n.equals("package-info.class")) {
                    Class<?> c = Class.forName("dev.statvar." + n.substring(0, n.length() - 6), false,
                            PublicApiTest.class.getClassLoader());
                    if (isVisible(c)) {
                        types.add(c);
                    }
                }
            }
        }
        return types;
    }

    private static boolean isVisible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers()) && !(k != c && Modifier.isProtected(k.getModifiers()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isInternal(Type t) {
        return t.getTypeName().contains("dev.statvar.internal.");
    }

    private static void check(String where, Type t, List<String> found) {
        if (isInternal(t)) {
            found.add(where + ": " + t.getTypeName());
        }
    }

    private static List<String> internalTypesIn(Class<?> c) {
        List<String> found = new ArrayList<>();
        check(c.getName() + " extends", c.getGenericSuperclass() == null ? Object.class : c.getGenericSuperclass(), found);
        for (Type i : c.getGenericInterfaces()) {
            check(c.getName() + " implements", i, found);
        }
        for (Field f : c.getDeclaredFields()) {
            if (Modifier.isPublic(f.getModifiers()) || Modifier.isProtected(f.getModifiers())) {
                check(c.getName() + "." + f.getName(), f.getGenericType(), found);
            }
        }
        List<Executable> members = new ArrayList<>(List.of(c.getDeclaredMethods()));
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            members.add(k);
        }
        for (Executable m : members) {
            if (!Modifier.isPublic(m.getModifiers()) && !Modifier.isProtected(m.getModifiers())) {
                continue;
            }
            String where = c.getName() + "." + m.getName();
            if (m instanceof Method method) {
                check(where + " returns", method.getGenericReturnType(), found);
            }
            for (Type p : m.getGenericParameterTypes()) {
                check(where + " takes", p, found);
            }
            for (Type e : m.getGenericExceptionTypes()) {
                check(where + " throws", e, found);
            }
        }
        return found;
    }

    @Test
    void noPublicSignatureNamesAnInternalType() throws Exception {
        List<Class<?>> types = apiTypes();
        assertTrue(types.contains(StatRegistry.class) && types.contains(Counter.class) && types.size() > 10,
                types.toString());
        List<String> found = new ArrayList<>();
        for (Class<?> c : types) {
            found.addAll(internalTypesIn(c));
        }
        assertEquals(List.of(), found);
    }

    /** The check looks: a class that does expose one is found. */
    @Test
    void theCheckFindsAnExposedInternalType() {
        assertEquals(1, internalTypesIn(Exposing.class).size(), internalTypesIn(Exposing.class).toString());
    }

    @SuppressWarnings("unused")
    public static final class Exposing {
        public dev.statvar.internal.Layout layout() {
            return null;
        }

        dev.statvar.internal.Layout hidden() {
            return null;
        }
    }
}
