package io.gfxstats.repo;

import io.gfxstats.testing.SourceTree;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A clone on a machine with nothing beside it builds and tests: nothing in the build, the
 * scripts, the sources, the tests or the docs points outside the repository (the captures were
 * once read from a folder next to it), every compatibility fact the code cites is a section of
 * docs/compatibility.md, and every relative link in the README and docs names a file that exists
 * (and, with an anchor, one of its headings).
 */
class SelfContainedRepositoryTest {
    /** What the repository is made of (the top level the developers' guide fixes). */
    private static final List<String> TOP = List.of("pom.xml", "README.md", "proto", "src",
            "config", "scripts", "docs", ".ci");
    /** Test data folders carry their sources' READMEs, which may name where a copy came from. */
    private static final Path TEST_DATA = SourceTree.testData();

    @Test
    void shouldNotReferToAnythingBesideTheRepository() throws IOException {
        // Spelled in pieces so that this file does not match itself.
        List<String> needles = List.of(".." + "/shared", "/work" + "/shared", "shared" + "/spec", "shared" + "/testdata");
        List<String> offenders = new ArrayList<>();
        for (Path file : repositoryFiles()) {
            String text = read(file);
            for (String needle : needles) {
                if (text != null && text.contains(needle)) {
                    offenders.add(file + ": " + needle);
                }
            }
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    void shouldResolveEveryCompatibilityCitationToASectionOfTheDoc() throws IOException {
        String doc = Files.readString(Path.of("docs", "compatibility.md"), StandardCharsets.UTF_8);
        Set<Integer> sections = new TreeSet<>();
        Matcher heading = Pattern.compile("(?m)^## (\\d+)\\. ").matcher(doc);
        while (heading.find()) {
            sections.add(Integer.parseInt(heading.group(1)));
        }
        assertEquals(Set.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), sections, "numbered sections of docs/compatibility.md");

        // "spec section 7", "spec sections 2-4", "spec 10", "compatibility.md section 3"
        Pattern citation = Pattern.compile("\\b(?:spec|compatibility\\.md)(?: sections?)? (\\d{1,2})(?:-(\\d{1,2}))?\\b");
        List<String> dangling = new ArrayList<>();
        int cited = 0;
        for (Path file : repositoryFiles()) {
            String text = read(file);
            if (text == null || file.startsWith(TEST_DATA)) {
                continue;
            }
            Matcher m = citation.matcher(text);
            while (m.find()) {
                cited++;
                int from = Integer.parseInt(m.group(1));
                int to = m.group(2) == null ? from : Integer.parseInt(m.group(2));
                for (int s = from; s <= to; s++) {
                    if (!sections.contains(s)) {
                        dangling.add(file + ": " + m.group());
                    }
                }
            }
        }
        assertTrue(cited > 5, "the sources cite the compatibility facts (found " + cited + ")");
        assertEquals(List.of(), dangling);
    }

    /**
     * The packages that reproduce another project's behaviour cite their own spec in docs/spec
     * (see each package-info): every "spec N.M" there must name a heading of that file.
     */
    @Test
    void shouldFindEverySectionThePackagesCiteInTheirSpec() throws IOException {
        Map<String, String> specOfPackage = Map.of(
                "trace", "trace-frames.md", "timeline", "frametimeline.md", "matrix", "matrix-frametracer.md");
        Pattern citation = Pattern.compile("\\bspec (\\d{1,2}(?:\\.\\d{1,2})?)(?![\\d.]*\\d)");
        List<String> dangling = new ArrayList<>();
        int cited = 0;
        for (Map.Entry<String, String> e : specOfPackage.entrySet()) {
            String spec = Files.readString(Path.of("docs", "spec", e.getValue()), StandardCharsets.UTF_8);
            for (Path root : Stream.concat(SourceTree.mainRoots().stream(), SourceTree.testRoots().stream()).toList()) {
                Path dir = root.resolve("io/gfxstats/" + e.getKey());
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                List<Path> files;
                try (Stream<Path> walk = Files.walk(dir)) {
                    files = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
                }
                for (Path file : files) {
                    Matcher m = citation.matcher(Files.readString(file, StandardCharsets.UTF_8));
                    while (m.find()) {
                        cited++;
                        String section = m.group(1);
                        Pattern heading = Pattern.compile("(?m)^#{2,4} " + Pattern.quote(section) + "[. ]");
                        if (!heading.matcher(spec).find()) {
                            dangling.add(file + ": " + m.group() + " (not a section of docs/spec/" + e.getValue() + ")");
                        }
                    }
                }
            }
        }
        assertTrue(cited > 10, "the packages cite their specs (found " + cited + ")");
        assertEquals(List.of(), dangling);
    }

    @Test
    void shouldResolveEveryRelativeLinkOfTheReadmeAndDocs() throws IOException {
        Pattern link = Pattern.compile("\\]\\(([^)#\\s]+)(?:#[^)]*)?\\)");
        List<String> broken = new ArrayList<>();
        for (Path page : markdownPages()) {
            Matcher m = link.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (m.find()) {
                String target = m.group(1);
                if (target.contains("://") || target.startsWith("mailto:")) {
                    continue;
                }
                Path resolved = page.resolveSibling(target).normalize();
                if (!Files.exists(resolved) || resolved.startsWith("..")) {
                    broken.add(page + " -> " + target);
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void shouldFindTheHeadingThatEveryLinkAnchorNames() throws IOException {
        Pattern link = Pattern.compile("\\]\\(([^)#\\s]*)#([^)\\s]+)\\)");
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : markdownPages()) {
            Matcher m = link.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (m.find()) {
                if (m.group(1).contains("://")) {
                    continue;
                }
                Path target = m.group(1).isEmpty() ? page : page.resolveSibling(m.group(1)).normalize();
                if (!Files.isRegularFile(target)) {
                    continue; // the file itself is shouldResolveEveryRelativeLinkOfTheReadmeAndDocs' check
                }
                checked++;
                if (!anchors.computeIfAbsent(target, SelfContainedRepositoryTest::headingAnchors)
                        .contains(m.group(2))) {
                    broken.add(page + " -> " + m.group(1) + "#" + m.group(2));
                }
            }
        }
        assertTrue(checked > 10, "the README and docs link into sections (found " + checked + ")");
        assertEquals(List.of(), broken);
    }

    /**
     * The anchors a Markdown renderer such as GitHub's gives a page's headings: lower case, only
     * letters, digits, spaces, hyphens and underscores kept, spaces turned into hyphens, and a
     * heading seen before numbered {@code -1}, {@code -2}, ...; lines in fenced code are not
     * headings.
     */
    static Set<String> headingAnchors(Path page) {
        Pattern heading = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
        Set<String> anchors = new TreeSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        try {
            for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
                if (line.startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                Matcher m = heading.matcher(line);
                if (fenced || !m.matches()) {
                    continue;
                }
                String slug = m.group(1).toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
                int before = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(before == 0 ? slug : slug + "-" + before);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return anchors;
    }

    /** The README and the pages of docs/. */
    private static List<Path> markdownPages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    static List<Path> repositoryFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String top : TOP) {
            Path p = Path.of(top);
            if (Files.isRegularFile(p)) {
                files.add(p);
            } else if (Files.isDirectory(p)) {
                try (Stream<Path> walk = Files.walk(p)) {
                    walk.filter(Files::isRegularFile).filter(f -> !isBuildOutput(f)).sorted().forEach(files::add);
                }
            }
        }
        try (Stream<Path> walk = Files.walk(SourceTree.testData())) {
            walk.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().startsWith("README"))
                    .sorted().forEach(files::add);
        }
        return files;
    }

    /** What a build writes inside src/ (each module's target/), which is not the repository's. */
    private static boolean isBuildOutput(Path file) {
        for (Path part : file) {
            if (part.toString().equals("target")) {
                return true;
            }
        }
        return false;
    }

    /** The file as UTF-8 text, or null for binary files. */
    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
