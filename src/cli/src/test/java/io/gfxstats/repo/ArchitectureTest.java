package io.gfxstats.repo;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.Architectures;
import io.gfxstats.testing.SourceTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The dependency graph drawn from the compiled classes of every module, held to the picture of
 * docs/architecture.md: layers that only look down, no package cycles, and a doc that names
 * every package there is. The modules already keep the coarse layers (Maven refuses an upward
 * dependency between them); this test keeps the layers inside a module, which Maven cannot see.
 */
class ArchitectureTest {
    /** Layers from the bottom: a class may use its own layer and the layers listed before it. */
    static final List<Layer> LAYERS = List.of(
            new Layer("base", "io.gfxstats.stats..", "io.gfxstats.args..", "io.gfxstats.text..", "io.gfxstats.proto..", "io.gfxstats.rpc.v1.."),
            new Layer("rules", "io.gfxstats.frame..", "io.gfxstats.matrix..", "io.gfxstats.timeline",
                    "io.gfxstats.timeline.feed..", "io.gfxstats.timeline.wayland.."),
            new Layer("formats", "io.gfxstats.buffer..", "io.gfxstats.scene..", "io.gfxstats.dayfile..", "io.gfxstats.dump.."),
            new Layer("client", "io.gfxstats.client..", "io.gfxstats.rpc", "io.gfxstats.timeline.recorder.."),
            new Layer("daemon", "io.gfxstats.daemon..", "io.gfxstats.store.."),
            new Layer("cli", "io.gfxstats.cli..", "io.gfxstats.dumpclient..", "io.gfxstats.replay..", "io.gfxstats.record..",
                    "io.gfxstats.demo..", "io.gfxstats.framestats..", "io.gfxstats.trace..", "io.gfxstats.timeline.log..",
                    "io.gfxstats.timeline.perfetto..", "io.gfxstats.report..", "io.gfxstats.palette..", "io.gfxstats.live..", "io.gfxstats.collect.."));

    record Layer(String name, String... packages) {
    }

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        // Each module's own class folder, not the jars on the classpath (which, depending on how
        // Maven resolved the reactor, may be installed copies of an older build).
        List<Path> roots = SourceTree.classRoots();
        assertEquals(SourceTree.MODULES.size() - 1, roots.size(), "compiled modules (bench has no main classes): " + roots);
        classes = new ClassFileImporter().importPaths(roots);
    }

    @Test
    void shouldHaveNoPackageCycles() {
        slices().matching("io.gfxstats.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void shouldOnlyLookDownTheLayers() {
        Architectures.LayeredArchitecture rule = Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (Layer layer : LAYERS) {
            rule = rule.layer(layer.name()).definedBy(layer.packages());
        }
        for (int i = 0; i < LAYERS.size() - 1; i++) {
            String[] above = LAYERS.subList(i + 1, LAYERS.size()).stream().map(Layer::name).toArray(String[]::new);
            rule = rule.whereLayer(LAYERS.get(i).name()).mayOnlyBeAccessedByLayers(above);
        }
        rule = rule.whereLayer(LAYERS.get(LAYERS.size() - 1).name()).mayNotBeAccessedByAnyLayer();
        rule.check(classes);
    }

    @Test
    void shouldPutEveryPackageInALayer() {
        Set<String> unplaced = packages().stream()
                .filter(p -> LAYERS.stream().flatMap(l -> List.of(l.packages()).stream()).noneMatch(d -> matches(d, p)))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of(), unplaced, "packages in no layer of ArchitectureTest.LAYERS (and docs/architecture.md)");
    }

    @Test
    void shouldNameEveryPackageInTheArchitectureDoc() throws IOException {
        String doc = Files.readString(Path.of("docs", "architecture.md"), StandardCharsets.UTF_8);
        Set<String> missing = packages().stream()
                .filter(p -> !doc.contains("`" + p + "`"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of(), missing, "packages docs/architecture.md does not name (as `io.gfxstats.x`)");
    }

    private static Set<String> packages() {
        return classes.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
    }

    /** ArchUnit's package notation as used above: "a.b" is that package, "a.b.." it and its sub-packages. */
    private static boolean matches(String definition, String pkg) {
        if (definition.endsWith("..")) {
            String base = definition.substring(0, definition.length() - 2);
            return pkg.equals(base) || pkg.startsWith(base + ".");
        }
        return pkg.equals(definition);
    }
}
