import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Checks a staging repository (what {@code mvn deploy -DaltDeploymentRepository=...} wrote) against Maven
 * Central's rules, for the given artifacts of group dev.statvar:
 * <ul>
 *   <li>each has its POM, with name, description, url, a licence (name and url), a developer and scm
 *       (url and connection), directly or inherited from a parent that is staged too;</li>
 *   <li>a jar artifact has its jar (with classes), -sources.jar (with .java files) and -javadoc.jar (with
 *       index.html, and no page of an internal package);</li>
 *   <li>every file has .md5 and .sha1 checksums that match it; when any file is signed (.asc), all are;</li>
 *   <li>no POM names a SNAPSHOT (version, parent, dependency, plugin).</li>
 * </ul>
 * Usage: {@code java release/CheckStaging.java STAGING_DIR VERSION ARTIFACT_ID...}. Prints one line per
 * artifact and every problem; exits 1 if there is any.
 */
public final class CheckStaging {
    private static final String GROUP = "dev/statvar";
    private final Path repo;
    private final String version;
    private final List<String> problems = new ArrayList<>();
    private int signed;
    private int unsigned;

    private CheckStaging(Path repo, String version) {
        this.repo = repo;
        this.version = version;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: java release/CheckStaging.java STAGING_DIR VERSION ARTIFACT_ID...");
            System.exit(2);
        }
        CheckStaging c = new CheckStaging(Path.of(args[0]), args[1]);
        if (!Files.isDirectory(c.repo)) {
            System.err.println("no staging repository at " + c.repo);
            System.exit(1);
        }
        for (int i = 2; i < args.length; i++) {
            c.check(args[i]);
        }
        if (c.signed > 0 && c.unsigned > 0) {
            c.problems.add(c.unsigned + " files are not signed although " + c.signed + " are");
        }
        System.out.println((c.signed > 0 ? "signed (.asc): " + c.signed + " files" : "unsigned (no gpg.keyname)")
                + "; " + (args.length - 2) + " artifacts checked");
        if (!c.problems.isEmpty()) {
            c.problems.forEach(p -> System.out.println("PROBLEM: " + p));
            System.out.println(c.problems.size() + " problem(s): not publishable");
            System.exit(1);
        }
        System.out.println("staging repository OK: publishable by Maven Central's rules");
    }

    private Path dir(String artifactId) {
        return repo.resolve(GROUP).resolve(artifactId).resolve(version);
    }

    private void check(String artifactId) throws Exception {
        Path d = dir(artifactId);
        String base = artifactId + "-" + version;
        Path pom = d.resolve(base + ".pom");
        if (!Files.isRegularFile(pom)) {
            problems.add(artifactId + ": no POM " + pom);
            return;
        }
        Document doc = parse(pom);
        Element project = doc.getDocumentElement();
        String packaging = text(project, "packaging");
        packaging = packaging == null ? "jar" : packaging;
        List<String> files = new ArrayList<>(List.of(base + ".pom"));
        String text = Files.readString(pom);
        if (text.contains("SNAPSHOT")) {
            problems.add(artifactId + ": the POM names a SNAPSHOT: " + firstLineWith(text, "SNAPSHOT"));
        }
        for (String element : List.of("name", "description", "url")) {
            if (inherited(project, element) == null) {
                problems.add(artifactId + ": POM lacks <" + element + "> (nor does a staged parent have it)");
            }
        }
        Element licenses = inheritedElement(project, "licenses");
        if (licenses == null || child(child(licenses, "license"), "name") == null || child(child(licenses, "license"), "url") == null) {
            problems.add(artifactId + ": POM lacks <licenses><license> with <name> and <url>");
        }
        Element developers = inheritedElement(project, "developers");
        Element dev = developers == null ? null : child(developers, "developer");
        if (dev == null || (child(dev, "name") == null && child(dev, "id") == null)) {
            problems.add(artifactId + ": POM lacks <developers><developer> with <name> or <id>");
        }
        Element scm = inheritedElement(project, "scm");
        if (scm == null || child(scm, "url") == null || child(scm, "connection") == null) {
            problems.add(artifactId + ": POM lacks <scm> with <url> and <connection>");
        }
        if (packaging.equals("jar")) {
            files.add(base + ".jar");
            files.add(base + "-sources.jar");
            files.add(base + "-javadoc.jar");
            checkJar(artifactId, d.resolve(base + ".jar"), ".class", null);
            checkJar(artifactId, d.resolve(base + "-sources.jar"), ".java", null);
            checkJar(artifactId, d.resolve(base + "-javadoc.jar"), "index.html", "/internal/");
        } else if (!packaging.equals("pom")) {
            problems.add(artifactId + ": unexpected packaging " + packaging);
        }
        for (String f : files) {
            checkSums(artifactId, d.resolve(f));
        }
        System.out.printf("%-20s %-4s %s%n", artifactId, packaging, String.join(", ", files));
    }

    private void checkJar(String artifactId, Path jar, String mustContain, String mustNotContain) throws IOException {
        if (!Files.isRegularFile(jar)) {
            problems.add(artifactId + ": missing " + jar.getFileName());
            return;
        }
        boolean found = false;
        try (ZipFile z = new ZipFile(jar.toFile())) {
            for (ZipEntry e : java.util.Collections.list(z.entries())) {
                found |= e.getName().endsWith(mustContain);
                if (mustNotContain != null && e.getName().contains(mustNotContain)) {
                    problems.add(artifactId + ": " + jar.getFileName() + " contains " + e.getName());
                    break;
                }
            }
        }
        if (!found) {
            problems.add(artifactId + ": " + jar.getFileName() + " has no " + mustContain);
        }
    }

    private void checkSums(String artifactId, Path file) throws Exception {
        if (!Files.isRegularFile(file)) {
            return; // reported by the caller's own check
        }
        byte[] bytes = Files.readAllBytes(file);
        for (String alg : List.of("MD5", "SHA-1")) {
            Path sum = Path.of(file + (alg.equals("MD5") ? ".md5" : ".sha1"));
            if (!Files.isRegularFile(sum)) {
                problems.add(artifactId + ": no checksum " + sum.getFileName());
                continue;
            }
            String want = HexFormat.of().formatHex(MessageDigest.getInstance(alg).digest(bytes));
            String have = Files.readString(sum).trim().split("\\s+")[0];
            if (!want.equalsIgnoreCase(have)) {
                problems.add(artifactId + ": " + sum.getFileName() + " does not match the file");
            }
        }
        if (Files.isRegularFile(Path.of(file + ".asc"))) {
            signed++;
        } else {
            unsigned++;
        }
    }

    /** The text of a direct child element of the project, or of a staged parent's, or null. */
    private String inherited(Element project, String name) throws Exception {
        Element e = inheritedElement(project, name);
        return e == null ? null : e.getTextContent().trim();
    }

    private Element inheritedElement(Element project, String name) throws Exception {
        for (Element p = project; p != null; p = parentOf(p)) {
            Element e = child(p, name);
            if (e != null && !e.getTextContent().isBlank()) {
                return e;
            }
        }
        return null;
    }

    private Element parentOf(Element project) throws Exception {
        Element parent = child(project, "parent");
        if (parent == null) {
            return null;
        }
        String g = text(parent, "groupId");
        String a = text(parent, "artifactId");
        String v = text(parent, "version");
        Path pom = repo.resolve(g.replace('.', '/')).resolve(a).resolve(v).resolve(a + "-" + v + ".pom");
        if (!Files.isRegularFile(pom)) {
            problems.add(text(project, "artifactId") + ": its parent " + g + ":" + a + ":" + v + " is not staged");
            return null;
        }
        return parse(pom).getDocumentElement();
    }

    private static Document parse(Path pom) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(pom.toFile());
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        NodeList l = parent.getChildNodes();
        for (int i = 0; i < l.getLength(); i++) {
            Node n = l.item(i);
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }

    private static String firstLineWith(String text, String s) {
        for (String line : text.split("\n")) {
            if (line.contains(s)) {
                return line.trim();
            }
        }
        return "";
    }
}
