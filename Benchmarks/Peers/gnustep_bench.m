// GNUstep's NSPredicate on the peer workload (scripts/bench-peers builds and runs this).
//
//   gnustep_bench PREPARED.json
//
// PREPARED.json is an array of {"predicate": text, "object": value or null, "expected": bool or null}
// written by scripts/bench-peers. For every entry this prints one tab-separated line:
//
//   index  parse(ok|rejected)  eval(right|wrong|error|none)  ns-per-parse  ns-per-evaluation
//
// Entries that fail to parse or
// evaluate report 0. Written for GCC's Objective-C (no ARC), hence the explicit autorelease pools.
#import <Foundation/Foundation.h>
#include <time.h>

static double nowNanoseconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static NSPredicate *parse(NSString *text) {
  NSPredicate *predicate = nil;
  NS_DURING
    predicate = [NSPredicate predicateWithFormat:text];
  NS_HANDLER
    predicate = nil;
  NS_ENDHANDLER
  return predicate;
}

// 0 false, 1 true, -1 raised an exception.
static int evaluate(NSPredicate *predicate, id object) {
  int answer = -1;
  NS_DURING
    answer = [predicate evaluateWithObject:object] ? 1 : 0;
  NS_HANDLER
    answer = -1;
  NS_ENDHANDLER
  return answer;
}

// Each measurement is the best of `runs` runs; a run repeats the call for about `runBudget` nanoseconds,
// so slow and fast implementations get comparable statistical weight.
static const int runs = 5;
static const double runBudget = 20e6;

static int iterationsFor(double nanosecondsPerCall) {
  double iterations = runBudget / (nanosecondsPerCall > 1 ? nanosecondsPerCall : 1);
  return iterations < 3 ? 3 : iterations > 1e6 ? 1000000 : (int)iterations;
}

static double timeParse(NSString *text) {
  double start = nowNanoseconds();
  [NSPredicate predicateWithFormat:text];
  int iterations = iterationsFor(nowNanoseconds() - start);
  double best = 1e300;
  for (int run = 0; run < runs; run++) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    start = nowNanoseconds();
    for (int i = 0; i < iterations; i++) {
      [NSPredicate predicateWithFormat:text];
    }
    double elapsed = (nowNanoseconds() - start) / iterations;
    [pool drain];
    if (elapsed < best) best = elapsed;
  }
  return best;
}

static double timeEvaluate(NSPredicate *predicate, id object) {
  double start = nowNanoseconds();
  [predicate evaluateWithObject:object];
  int iterations = iterationsFor(nowNanoseconds() - start);
  double best = 1e300;
  for (int run = 0; run < runs; run++) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    start = nowNanoseconds();
    for (int i = 0; i < iterations; i++) {
      [predicate evaluateWithObject:object];
    }
    double elapsed = (nowNanoseconds() - start) / iterations;
    [pool drain];
    if (elapsed < best) best = elapsed;
  }
  return best;
}

int main(int argc, char **argv) {
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  if (argc != 2) {
    fprintf(stderr, "usage: gnustep_bench PREPARED.json\n");
    return 2;
  }
  NSData *data = [NSData dataWithContentsOfFile:[NSString stringWithUTF8String:argv[1]]];
  if (data == nil) {
    fprintf(stderr, "gnustep_bench: cannot read %s\n", argv[1]);
    return 66;
  }
  NSError *error = nil;
  NSArray *entries = [NSJSONSerialization JSONObjectWithData:data options:0 error:&error];
  if (![entries isKindOfClass:[NSArray class]]) {
    fprintf(stderr, "gnustep_bench: %s is not a JSON array\n", argv[1]);
    return 65;
  }
  NSUInteger index = 0;
  for (NSDictionary *entry in entries) {
    NSString *text = [entry objectForKey:@"predicate"];
    id object = [entry objectForKey:@"object"];
    id expected = [entry objectForKey:@"expected"];
    NSPredicate *predicate = parse(text);
    const char *parseStatus = predicate != nil ? "ok" : "rejected";
    const char *evalStatus = "none";
    double parseTime = 0, evalTime = 0;
    if (predicate != nil) {
      parseTime = timeParse(text);
      if (expected != nil && expected != [NSNull null]) {
        int answer = evaluate(predicate, object);
        if (answer < 0) {
          evalStatus = "error";
        } else if (answer == ([expected boolValue] ? 1 : 0)) {
          evalStatus = "right";
          evalTime = timeEvaluate(predicate, object);
        } else {
          evalStatus = "wrong";
        }
      }
    }
    printf("%lu\t%s\t%s\t%.1f\t%.1f\n", (unsigned long)index, parseStatus, evalStatus, parseTime, evalTime);
    fflush(stdout);
    index++;
  }
  [pool drain];
  return 0;
}
