package io.conduit.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.nativeimage.LangChain4jTypes;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.net.JarURLConnection;
import java.net.URL;
import java.util.Arrays;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * Every class of the LangChain4j packages whose types its Jackson mappers map (LangChain4jTypes.PACKAGES), as the jars
 * on the test class path hold them, is registered for reflection in a native image: an upgrade that adds a wire type
 * fails here until it is registered.
 */
class LangChain4jNativeTypesTest {

    @Test
    void everyWireTypeIsRegistered() throws Exception {
        Set<String> onClassPath = new TreeSet<>();
        for (String pkg : LangChain4jTypes.PACKAGES) {
            Set<String> classes = classesOf(pkg);
            assertThat(classes).as("classes of %s on the class path", pkg).isNotEmpty();
            onClassPath.addAll(classes);
        }
        Set<String> registered = new TreeSet<>(Arrays.asList(
                LangChain4jTypes.class.getAnnotation(RegisterForReflection.class).classNames()));
        Set<String> missing = new TreeSet<>(onClassPath);
        missing.removeAll(registered);
        assertThat(missing).as("LangChain4j wire types not in io.conduit.nativeimage.LangChain4jTypes").isEmpty();
        Set<String> gone = new TreeSet<>(registered);
        gone.removeAll(onClassPath);
        assertThat(gone).as("registered names that no longer exist").isEmpty();
    }

    /** The classes (nested ones too, not anonymous ones) directly in a package, from the jars that hold it. */
    private static Set<String> classesOf(String pkg) throws Exception {
        String dir = pkg.replace('.', '/') + "/";
        Set<String> out = new TreeSet<>();
        for (URL url : Collections.list(LangChain4jNativeTypesTest.class.getClassLoader().getResources(dir))) {
            JarURLConnection jar = (JarURLConnection) url.openConnection();
            jar.setUseCaches(false);
            try (JarFile file = jar.getJarFile()) {
                file.stream().map(e -> e.getName())
                        .filter(n -> n.startsWith(dir) && n.endsWith(".class") && n.indexOf('/', dir.length()) < 0)
                        .filter(n -> !n.matches(".*\\$[0-9].*"))
                        .forEach(n -> out.add(n.substring(0, n.length() - ".class".length()).replace('/', '.')));
            }
        }
        return out;
    }
}
