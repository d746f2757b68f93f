// The validMessages of firebase-admin-node's test/unit/messaging/messaging.spec.ts ("Options
// validation"), lines 2044-2793 at commit 5a203f6737ffd96e44824a22a5a9004411d088e3, unchanged.
// Copyright 2017 Google LLC, Apache License 2.0 (http://www.apache.org/licenses/LICENSE-2.0).
// NodeMessageLiteralTests reads each `req:` literal as the SDK encodes it and compares it with
// valid/<label>.json (the SDK's expectedReq, written by scripts/sdk-messages/valid_node.js).
      {
        label: 'Generic data message',
        req: {
          data: {
            k1: 'v1',
            k2: 'v2',
          },
        },
      },
      {
        label: 'Generic notification message',
        req: {
          notification: {
            title: 'test.title',
            body: 'test.body',
            imageUrl: 'https://example.com/image.png',
          },
        },
        expectedReq: {
          notification: {
            title: 'test.title',
            body: 'test.body',
            image: 'https://example.com/image.png',
          },
        },
      },
      {
        label: 'Generic fcmOptions message',
        req: {
          fcmOptions: {
            analyticsLabel: 'test.analytics',
          },
        },
      },
      {
        label: 'Android data message',
        req: {
          android: {
            data: {
              k1: 'v1',
              k2: 'v2',
            },
          },
        },
      },
      {
        label: 'Android notification message',
        req: {
          android: {
            notification: {
              title: 'test.title',
              body: 'test.body',
              icon: 'test.icon',
              color: '#112233',
              sound: 'test.sound',
              tag: 'test.tag',
              imageUrl: 'https://example.com/image.png',
              ticker: 'test.ticker',
              sticky: true,
              visibility: 'private',
              proxy: 'deny',
            },
          },
        },
        expectedReq: {
          android: {
            notification: {
              title: 'test.title',
              body: 'test.body',
              icon: 'test.icon',
              color: '#112233',
              sound: 'test.sound',
              tag: 'test.tag',
              image: 'https://example.com/image.png',
              ticker: 'test.ticker',
              sticky: true,
              visibility: 'PRIVATE',
              proxy: 'DENY'
            },
          },
        },
      },
      {
        label: 'Android camel cased properties',
        req: {
          android: {
            collapseKey: 'test.key',
            restrictedPackageName: 'test.package',
            directBootOk: true,
            bandwidthConstrainedOk: true,
            restrictedSatelliteOk: true,
            notification: {
              clickAction: 'test.click.action',
              titleLocKey: 'title.loc.key',
              titleLocArgs: ['arg1', 'arg2'],
              bodyLocKey: 'body.loc.key',
              bodyLocArgs: ['arg1', 'arg2'],
              channelId: 'test.channel',
              eventTimestamp: new Date('2019-10-20T12:00:00-06:30'),
              localOnly: true,
              priority: 'high',
              vibrateTimingsMillis: [100, 50, 250],
              defaultVibrateTimings: false,
              defaultSound: true,
              lightSettings: {
                color: '#AABBCCDD',
                lightOnDurationMillis: 200,
                lightOffDurationMillis: 300,
              },
              defaultLightSettings: false,
              notificationCount: 1,
            },
          },
        },
        expectedReq: {
          android: {
            collapse_key: 'test.key',
            restricted_package_name: 'test.package',
            direct_boot_ok: true,
            bandwidth_constrained_ok: true,
            restricted_satellite_ok: true,
            notification: {
              click_action: 'test.click.action',
              title_loc_key: 'title.loc.key',
              title_loc_args: ['arg1', 'arg2'],
              body_loc_key: 'body.loc.key',
              body_loc_args: ['arg1', 'arg2'],
              channel_id: 'test.channel',
              event_time: '2019-10-20T18:30:00.000Z',
              local_only: true,
              notification_priority: 'PRIORITY_HIGH',
              vibrate_timings: ['0.100000000s', '0.050000000s', '0.250000000s'],
              default_vibrate_timings: false,
              default_sound: true,
              light_settings: {
                color: {
                  red: 0.6666666666666666,
                  green: 0.7333333333333333,
                  blue: 0.8,
                  alpha: 0.8666666666666667,
                },
                light_on_duration: '0.200000000s',
                light_off_duration: '0.300000000s',
              },
              default_light_settings: false,
              notification_count: 1,
            },
          },
        },
      },
      {
        label: 'Android TTL',
        req: {
          android: {
            priority: 'high',
            collapseKey: 'test.key',
            restrictedPackageName: 'test.package',
            ttl: 5000,
          },
        },
        expectedReq: {
          android: {
            priority: 'high',
            collapse_key: 'test.key',
            restricted_package_name: 'test.package',
            ttl: '5s',
          },
        },
      },
      {
        label: 'All Android properties',
        req: {
          android: {
            priority: 'high',
            collapseKey: 'test.key',
            restrictedPackageName: 'test.package',
            directBootOk: true,
            bandwidthConstrainedOk: true,
            restrictedSatelliteOk: true,
            ttl: 5,
            data: {
              k1: 'v1',
              k2: 'v2',
            },
            notification: {
              title: 'test.title',
              body: 'test.body',
              icon: 'test.icon',
              color: '#112233',
              sound: 'test.sound',
              tag: 'test.tag',
              imageUrl: 'https://example.com/image.png',
              clickAction: 'test.click.action',
              titleLocKey: 'title.loc.key',
              titleLocArgs: ['arg1', 'arg2'],
              bodyLocKey: 'body.loc.key',
              bodyLocArgs: ['arg1', 'arg2'],
              channelId: 'test.channel',
              ticker: 'test.ticker',
              sticky: true,
              visibility: 'private',
              eventTimestamp: new Date('2019-10-20T12:00:00-06:30'),
              localOnly: true,
              priority: 'high',
              vibrateTimingsMillis: [100, 50, 250],
              defaultVibrateTimings: false,
              defaultSound: true,
              lightSettings: {
                color: '#AABBCC',
                lightOnDurationMillis: 200,
                lightOffDurationMillis: 300,
              },
              defaultLightSettings: false,
              notificationCount: 1,
              proxy: 'if_priority_lowered',
            },
            fcmOptions: {
              analyticsLabel: 'test.analytics',
            },
          },
        },
        expectedReq: {
          android: {
            priority: 'high',
            collapse_key: 'test.key',
            restricted_package_name: 'test.package',
            direct_boot_ok: true,
            bandwidth_constrained_ok: true,
            restricted_satellite_ok: true,
            ttl: '0.005000000s', // 5 ms = 5,000,000 ns
            data: {
              k1: 'v1',
              k2: 'v2',
            },
            notification: {
              title: 'test.title',
              body: 'test.body',
              icon: 'test.icon',
              color: '#112233',
              sound: 'test.sound',
              tag: 'test.tag',
              image: 'https://example.com/image.png',
              click_action: 'test.click.action',
              title_loc_key: 'title.loc.key',
              title_loc_args: ['arg1', 'arg2'],
              body_loc_key: 'body.loc.key',
              body_loc_args: ['arg1', 'arg2'],
              channel_id: 'test.channel',
              ticker: 'test.ticker',
              sticky: true,
              visibility: 'PRIVATE',
              event_time: '2019-10-20T18:30:00.000Z',
              local_only: true,
              notification_priority: 'PRIORITY_HIGH',
              vibrate_timings: ['0.100000000s', '0.050000000s', '0.250000000s'],
              default_vibrate_timings: false,
              default_sound: true,
              light_settings: {
                color: {
                  red: 0.6666666666666666,
                  green: 0.7333333333333333,
                  blue: 0.8,
                  alpha: 1,
                },
                light_on_duration: '0.200000000s',
                light_off_duration: '0.300000000s',
              },
              default_light_settings: false,
              notification_count: 1,
              proxy: 'IF_PRIORITY_LOWERED',
            },
            fcmOptions: {
              analyticsLabel: 'test.analytics',
            },
          },
        },
      },
      {
        label: 'Webpush data message',
        req: {
          webpush: {
            data: {
              k1: 'v1',
              k2: 'v2',
            },
          },
        },
      },
      {
        label: 'Webpush notification message',
        req: {
          webpush: {
            notification: {
              title: 'test.title',
              body: 'test.body',
              icon: 'test.icon',
            },
          },
        },
      },
      {
        label: 'All Webpush properties',
        req: {
          webpush: {
            headers: {
              h1: 'v1',
              h2: 'v2',
            },
            data: {
              k1: 'v1',
              k2: 'v2',
            },
            notification: {
              title: 'test.title',
              body: 'test.body',
              icon: 'test.icon',
              actions: [{
                action: 'test.action.1',
                title: 'test.action.1.title',
                icon: 'test.action.1.icon',
              }, {
                action: 'test.action.2',
                title: 'test.action.2.title',
                icon: 'test.action.2.icon',
              }],
              badge: 'test.badge',
              data: {
                key: 'value',
              },
              dir: 'auto',
              image: 'test.image',
              requireInteraction: true,
            },
            fcmOptions: {
              link: 'https://example.com',
            },
          },
        },
      },
      {
        label: 'APNS headers only',
        req: {
          apns: {
            headers: {
              k1: 'v1',
              k2: 'v2',
            },
          },
        },
      },
      {
        label: 'APNS string alert',
        req: {
          apns: {
            payload: {
              aps: {
                alert: 'test.alert',
              },
            },
          },
        },
      },
      {
        label: 'All APNS properties',
        req: {
          apns: {
            headers: {
              h1: 'v1',
              h2: 'v2',
            },
            payload: {
              aps: {
                alert: {
                  title: 'title',
                  subtitle: 'subtitle',
                  body: 'body',
                  titleLocKey: 'title.loc.key',
                  titleLocArgs: ['arg1', 'arg2'],
                  subtitleLocKey: 'subtitle.loc.key',
                  subtitleLocArgs: ['arg1', 'arg2'],
                  locKey: 'body.loc.key',
                  locArgs: ['arg1', 'arg2'],
                  actionLocKey: 'action.loc.key',
                  launchImage: 'image',
                },
                badge: 42,
                sound: 'test.sound',
                category: 'test.category',
                contentAvailable: true,
                mutableContent: true,
                threadId: 'thread.id',
              },
              customKey1: 'custom.value',
              customKey2: { nested: 'value' },
            },
            fcmOptions: {
              analyticsLabel: 'test.analytics',
              imageUrl: 'https://example.com/image.png',
            },
          },
        },
        expectedReq: {
          apns: {
            headers: {
              h1: 'v1',
              h2: 'v2',
            },
            payload: {
              aps: {
                'alert': {
                  'title': 'title',
                  'subtitle': 'subtitle',
                  'body': 'body',
                  'title-loc-key': 'title.loc.key',
                  'title-loc-args': ['arg1', 'arg2'],
                  'subtitle-loc-key': 'subtitle.loc.key',
                  'subtitle-loc-args': ['arg1', 'arg2'],
                  'loc-key': 'body.loc.key',
                  'loc-args': ['arg1', 'arg2'],
                  'action-loc-key': 'action.loc.key',
                  'launch-image': 'image',
                },
                'badge': 42,
                'sound': 'test.sound',
                'category': 'test.category',
                'content-available': 1,
                'mutable-content': 1,
                'thread-id': 'thread.id',
              },
              customKey1: 'custom.value',
              customKey2: { nested: 'value' },
            },
            fcmOptions: {
              analyticsLabel: 'test.analytics',
              image: 'https://example.com/image.png',
            },
          },
        },
      },
      {
        label: 'APNS critical sound',
        req: {
          apns: {
            payload: {
              aps: {
                sound: {
                  critical: true,
                  name: 'test.sound',
                  volume: 0.5,
                },
              },
            },
          },
        },
        expectedReq: {
          apns: {
            payload: {
              aps: {
                sound: {
                  critical: 1,
                  name: 'test.sound',
                  volume: 0.5,
                },
              },
            },
          },
        },
      },
      {
        label: 'APNS critical sound name only',
        req: {
          apns: {
            payload: {
              aps: {
                sound: {
                  name: 'test.sound',
                },
              },
            },
          },
        },
        expectedReq: {
          apns: {
            payload: {
              aps: {
                sound: {
                  name: 'test.sound',
                },
              },
            },
          },
        },
      },
      {
        label: 'APNS critical sound explicitly false',
        req: {
          apns: {
            payload: {
              aps: {
                sound: {
                  critical: false,
                  name: 'test.sound',
                  volume: 0.5,
                },
              },
            },
          },
        },
        expectedReq: {
          apns: {
            payload: {
              aps: {
                sound: {
                  name: 'test.sound',
                  volume: 0.5,
                },
              },
            },
          },
        },
      },
      {
        label: 'APNS contentAvailable explicitly false',
        req: {
          apns: {
            payload: {
              aps: {
                contentAvailable: false,
              },
            },
          },
        },
        expectedReq: {
          apns: {
            payload: {
              aps: {},
            },
          },
        },
      },
      {
        label: 'APNS content-available set explicitly',
        req: {
          apns: {
            payload: {
              aps: {
                'content-available': 1,
              },
            },
          },
        },
        expectedReq: {
          apns: {
            payload: {
              aps: { 'content-available': 1 },
            },
          },
        },
      },
      {
        label: 'APNS mutableContent explicitly false',
        req: {
          apns: {
            payload: {
              aps: {
                mutableContent: false,
              },
            },
          },
        },
        expectedReq: {
          apns: {
            payload: {
              aps: {},
            },
          },
        },
      },
      {
        label: 'APNS custom fields',
        req: {
          apns: {
            payload: {
              aps: {
                k1: 'v1',
                k2: true,
              },
            },
          },
        },
        expectedReq: {
          apns: {
            payload: {
              aps: {
                k1: 'v1',
                k2: true,
              },
            },
          },
        },
      },
      {
        label: 'APNS Start LiveActivity',
        req: {
          apns: {
            liveActivityToken: 'live-activity-token',
            headers: {
              'apns-priority': '10'
            },
            payload: {
              aps: {
                timestamp: 1746475860808,
                event: 'start',
                'content-state': {
                  'demo': 1
                },
                'attributes-type': 'DemoAttributes',
                'attributes': {
                  'demoAttribute': 1,
                },
                'alert': {
                  'title': 'test title',
                  'body': 'test body'
                }
              },
            },
          },
        },
        expectedReq: {
          apns: {
            live_activity_token: 'live-activity-token',
            headers: {
              'apns-priority': '10'
            },
            payload: {
              aps: {
                timestamp: 1746475860808,
                event: 'start',
                'content-state': {
                  'demo': 1
                },
                'attributes-type': 'DemoAttributes',
                'attributes': {
                  'demoAttribute': 1,
                },
                'alert': {
                  'title': 'test title',
                  'body': 'test body'
                }
              },
            },
          },
        },
      },
      {
        label: 'APNS Update LiveActivity',
        req: {
          apns: {
            liveActivityToken: 'live-activity-token',
            headers: {
              'apns-priority': '10'
            },
            payload: {
              aps: {
                timestamp: 1746475860808,
                event: 'update',
                'content-state': {
                  'test1': 100,
                  'test2': 'demo'
                },
                'alert': {
                  'title': 'test title',
                  'body': 'test body'
                }
              },
            },
          },
        },
        expectedReq: {
          apns: {
            live_activity_token: 'live-activity-token',
            headers: {
              'apns-priority': '10'
            },
            payload: {
              aps: {
                timestamp: 1746475860808,
                event: 'update',
                'content-state': {
                  'test1': 100,
                  'test2': 'demo'
                },
                'alert': {
                  'title': 'test title',
                  'body': 'test body'
                }
              },
            },
          },
        },
      },
      {
        label: 'APNS End LiveActivity',
        req: {
          apns: {
            liveActivityToken: 'live-activity-token',
            'headers': {
              'apns-priority': '10'
            },
            payload: {
              aps: {
                timestamp: 1746475860808,
                'dismissal-date': 1746475860808 + 60,
                event: 'end',
                'content-state': {
                  'test1': 100,
                  'test2': 'demo'
                },
                'alert': {
                  'title': 'test title',
                  'body': 'test body'
                }
              },
            },
          },
        },
        expectedReq: {
          apns: {
            live_activity_token: 'live-activity-token',
            'headers': {
              'apns-priority': '10'
            },
            payload: {
              aps: {
                timestamp: 1746475860808,
                'dismissal-date': 1746475860808 + 60,
                event: 'end',
                'content-state': {
                  'test1': 100,
                  'test2': 'demo'
                },
                'alert': {
                  'title': 'test title',
                  'body': 'test body'
                }
              },
            },
          },
        },
      },
