package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How {@code crater files} reads SPACE:/PATH, and the bytes it shows in binary units. */
class FileAddressTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // address                   | space            | path            | into  | url
                "user:/data/a.txt            | user             | /data/a.txt     | false | /api/v1/files/user/data/a.txt",
                "user:                       | user             | /               | false | /api/v1/files/user",
                "user:/                      | user             | /               | false | /api/v1/files/user",
                "public:/datasets/           | public           | /datasets       | true  | /api/v1/files/public/datasets",
                "account:vision:/x           | account:vision   | /x              | false | /api/v1/files/account%3Avision/x",
                "account:vision:             | account:vision   | /               | false | /api/v1/files/account%3Avision",
                "account:/shared/run1        | account          | /shared/run1    | false | /api/v1/files/account/shared/run1",
                "user:/a//b                  | user             | /a/b            | false | /api/v1/files/user/a/b",
                "user:/with space/100%.txt   | user             | /with space/100%.txt | false | /api/v1/files/user/with%20space/100%25.txt",
                "user:/a:/b                  | user             | /a:/b           | false | /api/v1/files/user/a%3A/b",
                "user:/数据/è.txt             | user             | /数据/è.txt      | false | /api/v1/files/user/%E6%95%B0%E6%8D%AE/%C3%A8.txt",
                "user:/%2e%2e                | user             | /%2e%2e         | false | /api/v1/files/user/%252e%252e",
            })
    void goodAddressesNameASpaceAndAPath(String text, String space, String path, boolean into, String url) {
        FileAddress a = FileAddress.parse(text);
        assertThat(a.space()).isEqualTo(space);
        assertThat(a.path()).isEqualTo(path);
        assertThat(a.into()).isEqualTo(into);
        assertThat(a.url()).isEqualTo(url);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "/data/a.txt           | no SPACE:/PATH",
                "user                  | no SPACE:/PATH",
                "user:data             | no SPACE:/PATH",
                "account:vision        | no SPACE:/PATH",
                "users:/a              | 'users' is not a space",
                "account:Vision:/a     | 'account:Vision' is not a space",
                "account::/a           | 'account:' is not a space",
                "account:a/b:/c        | 'account:a/b' is not a space",
                "user:/a/../b          | '.' and '..' are not names here",
                "user:/./b             | '.' and '..' are not names here",
            })
    void badAddressesAreUsageErrorsThatSayTheForm(String text, String why) {
        assertThatThrownBy(() -> FileAddress.parse(text))
                .isInstanceOfSatisfying(
                        CliException.class, e -> assertThat(e.exitCode()).isEqualTo(Exit.USAGE))
                .hasMessageContaining(why)
                .hasMessageContaining("SPACE:/PATH, e.g. user:/data/a.txt");
    }

    @ParameterizedTest(name = "{0} into {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "user:/data/  | a.txt | user:/data/a.txt",
                "user:/data   | a.txt | user:/data",
                "user:        | a.txt | user:/a.txt",
                "public:/     | a.txt | public:/a.txt",
            })
    void aDestinationEndingInASlashTakesTheName(String dest, String name, String target) {
        assertThat(FileAddress.parse(dest).target(name).toString()).isEqualTo(target);
    }

    @org.junit.jupiter.api.Test
    void theCurrentAccountFillsInABareAccount() {
        FileAddress a = FileAddress.parse("account:/x/").in("lab");
        assertThat(a).isEqualTo(new FileAddress("account:lab", List.of("x"), true));
        assertThat(FileAddress.parse("user:/x").in("lab").space()).isEqualTo("user");
        assertThat(FileAddress.of("account:lab", "/a/b").toString()).isEqualTo("account:lab:/a/b");
    }

    @ParameterizedTest(name = "{0} bytes")
    @CsvSource({
        "0, 0 B",
        "1023, 1023 B",
        "1024, 1.0 KiB",
        "1536, 1.5 KiB",
        "5242880, 5.0 MiB",
        "53687091200, 50.0 GiB",
        "1649267441664, 1.5 TiB",
    })
    void bytesAreShownInBinaryUnits(long n, String shown) {
        assertThat(Values.bytes(n)).isEqualTo(shown);
    }
}
