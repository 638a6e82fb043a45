// The tree-sitter NSPredicate grammar (PyPI tree-sitter-cocoa-predicate) on the peer workload;
// scripts/bench-peers compiles this with the grammar's parser.c and a tree-sitter runtime.
//
//   treesitter_bench PREDICATES
//
// PREDICATES holds records "<byte count>\n<predicate bytes>\n" written by scripts/bench-peers.
// For every record this prints one tab-separated line:
//
//   index  parse(ok|rejected)  ns-per-parse
//
// "rejected" means the tree contains an ERROR or MISSING node; tree-sitter always returns a tree.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_cocoa_predicate(void);

static double now_nanoseconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// Same policy as gnustep_bench.m: best of `runs` runs of about `run_budget` nanoseconds each.
static const int runs = 5;
static const double run_budget = 20e6;

static double parse_once(TSParser *parser, const char *text, uint32_t length, int *has_error) {
  double start = now_nanoseconds();
  TSTree *tree = ts_parser_parse_string(parser, NULL, text, length);
  double elapsed = now_nanoseconds() - start;
  if (has_error != NULL) {
    *has_error = tree == NULL || ts_node_has_error(ts_tree_root_node(tree));
  }
  ts_tree_delete(tree);
  return elapsed;
}

static double time_parse(TSParser *parser, const char *text, uint32_t length) {
  double estimate = parse_once(parser, text, length, NULL);
  double wanted = run_budget / (estimate > 1 ? estimate : 1);
  long iterations = wanted < 3 ? 3 : wanted > 1e6 ? 1000000 : (long)wanted;
  double best = 1e300;
  for (int run = 0; run < runs; run++) {
    double start = now_nanoseconds();
    for (long i = 0; i < iterations; i++) {
      ts_tree_delete(ts_parser_parse_string(parser, NULL, text, length));
    }
    double elapsed = (now_nanoseconds() - start) / (double)iterations;
    if (elapsed < best) best = elapsed;
  }
  return best;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: treesitter_bench PREDICATES\n");
    return 2;
  }
  FILE *input = fopen(argv[1], "rb");
  if (input == NULL) {
    fprintf(stderr, "treesitter_bench: cannot read %s\n", argv[1]);
    return 66;
  }
  TSParser *parser = ts_parser_new();
  if (!ts_parser_set_language(parser, tree_sitter_cocoa_predicate())) {
    fprintf(stderr, "treesitter_bench: the grammar's ABI version does not match this tree-sitter runtime\n");
    return 69;
  }
  unsigned long length = 0;
  int index = 0;
  while (fscanf(input, "%lu", &length) == 1) {
    if (fgetc(input) != '\n') break;
    char *text = malloc(length + 1);
    if (text == NULL || fread(text, 1, length, input) != length) {
      fprintf(stderr, "treesitter_bench: %s is truncated\n", argv[1]);
      return 65;
    }
    text[length] = '\0';
    fgetc(input);
    int has_error = 0;
    parse_once(parser, text, (uint32_t)length, &has_error);
    double nanoseconds = has_error ? 0 : time_parse(parser, text, (uint32_t)length);
    printf("%d\t%s\t%.1f\n", index, has_error ? "rejected" : "ok", nanoseconds);
    fflush(stdout);
    free(text);
    index++;
  }
  fclose(input);
  ts_parser_delete(parser);
  return 0;
}
