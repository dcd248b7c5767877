package io.crater.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crater image build} and {@code crater image builds}: image builds ({@code /api/v1/images/builds},
 * docs/assets.md "Builds"), run as jobs in the cluster and put in the catalogue when pushed.
 */
final class ImageBuildCommands {

    static final String PATH = "/api/v1/images/builds";

    private ImageBuildCommands() {}

    static List<Output.Column> columns(Messages msg) {
        return List.of(
                Output.Column.path(msg.get("col.id"), "id"),
                Output.Column.path(msg.get("col.destination"), "destination"),
                Output.Column.path(msg.get("col.state"), "state"),
                Output.Column.path(msg.get("col.job"), "job"),
                Output.Column.path(msg.get("col.image"), "image"),
                Output.Column.path(msg.get("col.created"), "createdAt"),
                Output.Column.wide(msg.get("col.reason"), o -> Values.text(o, "reason")),
                Output.Column.wide(msg.get("col.detail"), o -> Values.text(o, "detail")));
    }

    @Command(
            name = "build",
            description = {
                "Build an image as a job in the cluster (no Docker daemon) and put it in the catalogue once pushed:"
                        + " from --base with --pip and --apt packages, or from --dockerfile FILE.",
                "The destination's registry must be the server's build registry or one your --credential (of kind"
                        + " registry) logs in to."
            })
    static final class Build extends Verb {
        @Option(
                names = "--base",
                paramLabel = "IMAGE",
                description = "The image to start from (pytorch/pytorch:2.3.0).")
        String base;

        @Option(
                names = "--pip",
                split = ",",
                paramLabel = "REQUIREMENT",
                description = "A pip requirement (transformers==4.44.0); repeat, or a,b.")
        List<String> pip;

        @Option(names = "--apt", split = ",", paramLabel = "PACKAGE", description = "A Debian package (git); repeat.")
        List<String> apt;

        @Option(names = "--dockerfile", paramLabel = "FILE", description = "Build from this Dockerfile instead.")
        Path dockerfile;

        @Option(
                names = "--destination",
                required = true,
                paramLabel = "REF",
                description = "The image to push: registry/repository:tag.")
        String destination;

        @Option(
                names = "--credential",
                paramLabel = "NAME",
                description = "Your registry credential that logs in to the destination's registry.")
        String credential;

        @Option(names = "--description", paramLabel = "TEXT", description = "What the catalogue says of it.")
        String description;

        @Option(names = "--cuda", paramLabel = "VERSION", description = "Its CUDA version, for the catalogue.")
        String cuda;

        @Option(names = "--kind", split = ",", paramLabel = "KIND", description = "Job kinds it is meant for.")
        List<String> kinds;

        @Option(names = "--vendor", split = ",", paramLabel = "VENDOR", description = "Accelerator vendors it runs on.")
        List<String> vendors;

        @Option(
                names = {"-f", "--follow"},
                description = "Follow the builder's log until the build's job ends.")
        boolean follow;

        @Override
        protected int execute() {
            Map<String, Object> body = new LinkedHashMap<>();
            if (dockerfile != null) {
                try {
                    body.put("dockerfile", Files.readString(dockerfile, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new CliException(Exit.USAGE, msg().get("imageBuild.unreadable", dockerfile, e.getMessage()));
                }
            }
            body.put("base", base);
            body.put("pip", pip == null ? null : Catalogue.words(pip));
            body.put("apt", apt == null ? null : Catalogue.words(apt));
            body.put("destination", destination);
            body.put("credential", credential);
            body.put("description", description);
            body.put("cudaVersion", cuda);
            body.put("kinds", kinds == null ? null : Catalogue.words(kinds));
            body.put("vendors", vendors == null ? null : Catalogue.words(vendors));
            body.values().removeIf(java.util.Objects::isNull);
            Object made = api().post(PATH, body);
            String job = Values.text(made, "job");
            if (output().human()) {
                err().println(msg().get("imageBuild.started", Values.text(made, "id"), destination, job));
            } else if (!follow) {
                output().one(made, columns(msg()), o -> Values.text(o, "id"));
            }
            if (!follow) {
                return Exit.OK;
            }
            JobWait.await(this, job, "started", null);
            JobLogs.follow(this, job, null);
            return Exit.OK;
        }
    }

    @Command(name = "builds", description = "Your image builds, newest first: state, job, and the image they made.")
    static final class ListBuilds extends Verb {
        @Option(names = "--all", description = "Everyone's (platform admins).")
        boolean all;

        @Option(names = "--max-items", paramLabel = "N", description = "Stop after N builds (default: all).")
        int maxItems;

        @Override
        protected int execute() {
            output().list(
                            pages(PATH, Catalogue.query("all", all), Math.max(0, maxItems)),
                            columns(msg()),
                            o -> Values.text(o, "id"));
            return Exit.OK;
        }
    }
}
