package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The client's output forms without a server: tables, JSONPath, custom columns, formats, durations. */
class CliOutputTest {

    static final Object PAGE = Map.of(
            "items",
            List.of(
                    Map.of("id", "j1", "name", "resnet", "state", "Running", "pods", List.of(Map.of("node", "a0"))),
                    Map.of("id", "j2", "name", "训练", "state", "Queued", "pods", List.of())));

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{.items[*].id}                                   | j1 j2",
                "{.items[0].name}                                 | resnet",
                "{.items[-1].id}                                  | j2",
                "{.items[?(@.state==\"Running\")].id}             | j1",
                "{.items[?(@.state!='Running')].name}             | 训练",
                "{range .items[*]}{.id}={.state};{end}            | j1=Running;j2=Queued;",
                "{range .items[*]}{.id}{\"\\t\"}{end}             | j1\\tj2\\t",
                "{..node}                                         | a0",
                "{.items[0:1].id}                                 | j1",
                "{.missing}                                       | ''",
                "id: {.items[1]['id']}                            | id: j2",
            })
    void jsonPathTemplates(String template, String expected) {
        assertThat(JsonPath.parse(template).render(PAGE)).isEqualTo(expected.replace("\\t", "\t"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{.items[*].id             | unclosed {",
                "{range .items[*]}{.id}    | {range} without {end}",
                "{.id}{end}                | {end} without {range}",
                "{}                        | empty {}",
            })
    void badTemplatesAreUsageErrors(String template, String message) {
        assertThatThrownBy(() -> JsonPath.parse(template))
                .isInstanceOfSatisfying(
                        CliException.class, e -> assertThat(e.exitCode()).isEqualTo(Exit.USAGE))
                .hasMessageContaining(message);
    }

    @Test
    void tablesAlignByDisplayWidthAndPrintOneHeaderAcrossPages() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Output out = Output.parse(null, false, false, new PrintStream(buf, true, StandardCharsets.UTF_8));
        List<Output.Column> cols =
                List.of(Output.Column.path("NAME", "name"), Output.Column.state("STATE", o -> Values.text(o, "state")));
        List<Object> items = Values.items(PAGE);
        out.list(List.of(items.subList(0, 1), items.subList(1, 2)).iterator(), cols, o -> Values.text(o, "id"));
        assertThat(buf.toString(StandardCharsets.UTF_8))
                .isEqualTo("NAME     STATE\n" + "resnet   Running\n" + "训练     Queued\n");
    }

    @Test
    void wideShowsMoreColumnsAndNoHeadersDropsTheHeader() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Output out = Output.parse("wide", true, false, new PrintStream(buf, true, StandardCharsets.UTF_8));
        out.list(
                List.of(Values.items(PAGE)).iterator(),
                List.of(Output.Column.path("ID", "id"), Output.Column.wide("NAME", o -> Values.text(o, "name"))),
                o -> "");
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo("j1   resnet\nj2   训练\n");
    }

    @Test
    void customColumnsAndNameAndJson() {
        assertThat(print("custom-columns=ID:.id,NODE:.pods[*].node")).isEqualTo("ID   NODE\nj1   a0\nj2\n");
        assertThat(print("name")).isEqualTo("j1\nj2\n");
        assertThat(print("json")).contains("\"items\" : [").contains("\"id\" : \"j1\"");
        assertThat(print("yaml")).contains("items:\n- ").contains("id: j1");
    }

    @ParameterizedTest(name = "-o {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "xml                   | unknown output format 'xml'",
                "jsonpath              | -o jsonpath needs a value",
                "custom-columns=ID     | is not HEADER:.path",
                "jsonpath={.a[}        | unclosed [",
                "jsonpath={.a            | unclosed {",
            })
    void badOutputFormatsAreUsageErrors(String spec, String message) {
        assertThatThrownBy(() -> print(spec))
                .isInstanceOfSatisfying(
                        CliException.class, e -> assertThat(e.exitCode()).isEqualTo(Exit.USAGE))
                .hasMessageContaining(message);
    }

    @Test
    void durationsReadLikeKubectls() {
        assertThat(Values.duration(Duration.ofSeconds(42))).isEqualTo("42s");
        assertThat(Values.duration(Duration.ofMinutes(12))).isEqualTo("12m");
        assertThat(Values.duration(Duration.ofMinutes(185))).isEqualTo("3h5m");
        assertThat(Values.duration(Duration.ofHours(52))).isEqualTo("2d4h");
        assertThat(Values.duration(Duration.ofHours(48))).isEqualTo("2d");
        assertThat(Values.money(1_234_567L, "CNY")).isEqualTo("1.23 CNY");
    }

    @Test
    void theVerbIsTheFirstWordThatIsNoOptionValue() {
        assertThat(CraterCli.firstWord("-o", "json", "job", "list")).isEqualTo("job");
        assertThat(CraterCli.firstWord("--no-color", "-a", "lab", "whoami")).isEqualTo("whoami");
        assertThat(CraterCli.firstWord("--version")).isNull();
    }

    private static String print(String spec) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Output.parse(spec, false, false, new PrintStream(buf, true, StandardCharsets.UTF_8))
                .list(
                        List.of(Values.items(PAGE)).iterator(),
                        List.of(Output.Column.path("ID", "id")),
                        o -> Values.text(o, "id"));
        return buf.toString(StandardCharsets.UTF_8);
    }
}
