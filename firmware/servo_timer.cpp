#include "servo_timer.h"

#include <Arduino.h>

#include "pins.h"

namespace servo_timer {

// Prescaler 64: one tick is 4 us (0.39 degree over 544-2400 us), plenty for a
// tray servo. Prescaler 8 would give 0.5 us steps like Arduino's Servo, but
// makes avr8js process a timer event every 8 CPU cycles and the emulator tests
// run 2.5 times slower; change SERVO_PRESCALER (8 or 64) to trade.
#define SERVO_PRESCALER 64
static const uint32_t TICKS_PER_PERIOD = uint32_t(PERIOD_US) * (F_CPU / 1000000UL) / SERVO_PRESCALER;
#if SERVO_PRESCALER == 64
static const uint8_t CLOCK_SELECT = _BV(CS11) | _BV(CS10);
#elif SERVO_PRESCALER == 8
static const uint8_t CLOCK_SELECT = _BV(CS11);
#else
#error "SERVO_PRESCALER must be 8 or 64"
#endif

static uint16_t toTicks(uint16_t us) {
  return (uint32_t(us) * (F_CPU / 1000000UL) + SERVO_PRESCALER / 2) / SERVO_PRESCALER;
}
static uint16_t minUs[2] = {DEFAULT_MIN_US, DEFAULT_MIN_US};
static uint16_t maxUs[2] = {DEFAULT_MAX_US, DEFAULT_MAX_US};
static uint16_t widthUs[2] = {0, 0};

static_assert(PIN_TRAY_SERVO == 9 || PIN_TRAY_SERVO == 10, "the tray servo needs a Timer1 pin (9 or 10)");

static uint8_t pinFor(uint8_t channel) { return channel == 0 ? 9 : 10; }

void begin() {
  // The Arduino core set Timer1 up for 8-bit analogWrite(); take it over.
  TCCR1B = 0;
  TCCR1A = _BV(WGM11);  // mode 14 with WGM13:12 below; outputs disconnected
  ICR1 = TICKS_PER_PERIOD - 1;
  OCR1A = 0;
  OCR1B = 0;
  TCNT1 = 0;
  TCCR1B = _BV(WGM13) | _BV(WGM12) | CLOCK_SELECT;
  stop(0);
  stop(1);
}

uint8_t channelForPin(uint8_t pin) {
  if (pin == 9) return 0;
  if (pin == 10) return 1;
  return NO_CHANNEL;
}

void setRange(uint8_t channel, uint16_t lo, uint16_t hi) {
  if (channel > 1) return;
  if (lo > hi) {
    uint16_t t = lo;
    lo = hi;
    hi = t;
  }
  if (lo < 1) lo = 1;
  if (hi > PERIOD_US - 1) hi = PERIOD_US - 1;
  minUs[channel] = lo;
  maxUs[channel] = hi;
}

void writeMicroseconds(uint8_t channel, uint16_t us) {
  if (channel > 1) return;
  if (us < minUs[channel]) us = minUs[channel];
  if (us > maxUs[channel]) us = maxUs[channel];
  widthUs[channel] = us;
  uint16_t ticks = toTicks(us);
  uint8_t oldSreg = SREG;
  cli();  // 16-bit register writes share the TEMP byte with any ISR touching Timer1
  if (channel == 0) {
    OCR1A = ticks;
    TCCR1A |= _BV(COM1A1);  // clear on compare match, set at BOTTOM
  } else {
    OCR1B = ticks;
    TCCR1A |= _BV(COM1B1);
  }
  SREG = oldSreg;
  pinMode(pinFor(channel), OUTPUT);
}

void writeAngle(uint8_t channel, uint16_t degrees) {
  if (channel > 1) return;
  if (degrees > 180) degrees = 180;
  // Same integer mapping as Servo.write(): min + degrees * (max - min) / 180.
  uint32_t span = maxUs[channel] - minUs[channel];
  writeMicroseconds(channel, minUs[channel] + uint16_t(span * degrees / 180));
}

void write(uint8_t channel, uint16_t value) {
  if (value < DEFAULT_MIN_US) {
    writeAngle(channel, value);
  } else {
    writeMicroseconds(channel, value);
  }
}

void stop(uint8_t channel) {
  if (channel > 1) return;
  TCCR1A &= channel == 0 ? ~_BV(COM1A1) & ~_BV(COM1A0) : ~_BV(COM1B1) & ~_BV(COM1B0);
  widthUs[channel] = 0;
  pinMode(pinFor(channel), OUTPUT);
  digitalWrite(pinFor(channel), LOW);
}

bool running(uint8_t channel) { return channel <= 1 && widthUs[channel] != 0; }

uint16_t pulseMicroseconds(uint8_t channel) { return channel <= 1 ? widthUs[channel] : 0; }

}  // namespace servo_timer
