// Times the reference calculator (ChineseOfficialMahjongHelper's mahjong-algorithm, as
// shipped in the pymahjonggb 1.4.0 sdist) on hands prepared by scripts/compare-reference.sh.
// Ours; compiled against their headers and sources under target/, never committed with them.
//
//   driver score   HANDS_FILE PASSES   calculate_fan on every scored hand, PASSES times
//   driver shanten HANDS_FILE PASSES   the five shape functions with their useful tables
//
// A hands file holds one hand a line, whitespace-separated integers in the reference's own
// encoding (tile codes 0x11.., packs from make_pack):
//   score:   packs P... standing T... win_tile win_flag flowers prevalent_wind seat_wind
//   shanten: packs standing T...
// Output, one line: hands, passes, a checksum (points; or shanten plus useful tiles) that
// the script compares with ours, and the wall time a hand in nanoseconds.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fan_calculator.h"
#include "shanten.h"

using namespace mahjong;

namespace {

[[noreturn]] void fail(const std::string &message) {
    std::fprintf(stderr, "reference driver: %s\n", message.c_str());
    std::exit(2);
}

std::vector<std::vector<long>> read_lines(const char *path) {
    std::ifstream in(path);
    if (!in) fail(std::string("cannot read ") + path);
    std::vector<std::vector<long>> lines;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::vector<long> values;
        long v;
        while (fields >> v) values.push_back(v);
        if (!values.empty()) lines.push_back(values);
    }
    return lines;
}

// Reads `count` values from `line` at `at`, checking the line is long enough.
long take(const std::vector<long> &line, size_t &at) {
    if (at >= line.size()) fail("short hand line");
    return line[at++];
}

void read_hand(const std::vector<long> &line, size_t &at, hand_tiles_t &hand) {
    std::memset(&hand, 0, sizeof hand);
    hand.pack_count = take(line, at);
    if (hand.pack_count < 0 || hand.pack_count > 4) fail("bad pack count");
    for (intptr_t i = 0; i < hand.pack_count; ++i) hand.fixed_packs[i] = (pack_t)take(line, at);
    hand.tile_count = take(line, at);
    if (hand.tile_count < 1 || hand.tile_count > 13) fail("bad standing tile count");
    for (intptr_t i = 0; i < hand.tile_count; ++i) hand.standing_tiles[i] = (tile_t)take(line, at);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int score(const char *path, long passes) {
    std::vector<calculate_param_t> params;
    for (const auto &line : read_lines(path)) {
        calculate_param_t p;
        size_t at = 0;
        read_hand(line, at, p.hand_tiles);
        p.win_tile = (tile_t)take(line, at);
        p.win_flag = (win_flag_t)take(line, at);
        p.flower_count = (uint8_t)take(line, at);
        p.prevalent_wind = (wind_t)take(line, at);
        p.seat_wind = (wind_t)take(line, at);
        params.push_back(p);
    }
    long long points = 0;
    auto start = std::chrono::steady_clock::now();
    for (long pass = 0; pass < passes; ++pass) {
        for (const auto &p : params) {
            fan_table_t fans = {};
            int total = calculate_fan(&p, &fans);
            if (total < 0) fail("calculate_fan rejected a corpus hand");
            points += total;
        }
    }
    double elapsed = seconds_since(start);
    double hands = (double)params.size() * (double)passes;
    std::printf("hands %zu passes %ld checksum %lld ns_per_hand %.1f\n", params.size(), passes,
                points, hands > 0 ? elapsed * 1e9 / hands : 0.0);
    return 0;
}

int shanten(const char *path, long passes) {
    std::vector<hand_tiles_t> hands;
    for (const auto &line : read_lines(path)) {
        hand_tiles_t hand;
        size_t at = 0;
        read_hand(line, at, hand);
        hands.push_back(hand);
    }
    typedef int (*shape_fn)(const tile_t *, intptr_t, useful_table_t *);
    // The shapes ours considers: the standard one always, the knitted straight with at most
    // one declared meld, the three others without melds.
    const shape_fn shapes[] = {regular_shanten, knitted_straight_shanten, seven_pairs_shanten,
                               thirteen_orphans_shanten, honors_and_knitted_tiles_shanten};
    long long checksum = 0;
    auto start = std::chrono::steady_clock::now();
    for (long pass = 0; pass < passes; ++pass) {
        for (const auto &hand : hands) {
            const size_t count = hand.pack_count == 0 ? 5 : hand.pack_count == 1 ? 2 : 1;
            useful_table_t useful[5];
            int distance[5];
            int best = 99;
            for (size_t s = 0; s < count; ++s) {
                distance[s] = shapes[s](hand.standing_tiles, hand.tile_count, &useful[s]);
                if (distance[s] < best) best = distance[s];
            }
            // The useful tiles of the nearest shapes, as `distance(..).useful` lists them.
            bool any[TILE_TABLE_SIZE] = {};
            for (size_t s = 0; s < count; ++s)
                if (distance[s] == best)
                    for (int t = 0; t < TILE_TABLE_SIZE; ++t) any[t] |= useful[s][t];
            int useful_count = 0;
            for (int t = 0; t < TILE_TABLE_SIZE; ++t) useful_count += any[t];
            checksum += best * 100 + useful_count;
        }
    }
    double elapsed = seconds_since(start);
    double n = (double)hands.size() * (double)passes;
    std::printf("hands %zu passes %ld checksum %lld ns_per_hand %.1f\n", hands.size(), passes,
                checksum, n > 0 ? elapsed * 1e9 / n : 0.0);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) fail("usage: driver score|shanten HANDS_FILE PASSES");
    long passes = std::strtol(argv[3], nullptr, 10);
    if (passes < 0) fail("PASSES must be 0 or more");
    if (std::strcmp(argv[1], "score") == 0) return score(argv[2], passes);
    if (std::strcmp(argv[1], "shanten") == 0) return shanten(argv[2], passes);
    fail(std::string("unknown mode ") + argv[1]);
}
