package io.crater.cli;

import picocli.CommandLine;

/** The client's version: the jar's Implementation-Version, "dev" when run from classes. */
public final class Version implements CommandLine.IVersionProvider {

    public static String number() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"crater " + number() + " (Java " + Runtime.version() + ")"};
    }
}
