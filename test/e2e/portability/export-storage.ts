import type { DataRecordType } from '../../../src/modules/portability/export/export-format';

/**
 * Where each record type of the export format (src/modules/portability/export/export-format.ts) is stored: the
 * checklist the export test holds every stored column against (each goes to a field, or is omitted with its reason),
 * and the erasure test's list of the tables holding a user's rows (each is a source here or derived from one). The
 * export and the importers map each record by hand; these tests keep the hand-written mappings complete.
 */

/**
 * Where a record type's data is stored: for each source table, each column and the field that holds it (`uid` is the
 * header's; `a.b` nested, `a[].b` in each item of an array, `*` the whole data, `roles` for the approved quotes'
 * links). `one`: at most one record per export.
 */
export interface RecordTypeInfo {
  cardinality: 'one' | 'many';
  columns: Record<string, Record<string, string>>;
}

const PB_COLUMNS = {
  mode: 'mode',
  mode2: 'mode2',
  language: 'language',
  difficulty: 'difficulty',
  punctuation: 'punctuation',
  numbers: 'numbers',
  lazy_mode: 'lazyMode',
  wpm: 'wpm',
  acc: 'acc',
  raw: 'raw',
  consistency: 'consistency',
  timestamp: 'timestamp',
};
const HEADER_UID = 'header.uid';

/** Every data record type, with its storage: the checklist of the export and erasure tests. */
export const RECORD_TYPES: Record<DataRecordType, RecordTypeInfo> = {
  account: {
    cardinality: 'one',
    columns: {
      users: {
        uid: 'uid',
        name: 'name',
        email: 'email',
        added_at: 'addedAt',
        last_name_change_at: 'lastNameChangeAt',
        banned: 'banned',
        lb_opt_out: 'lbOptOut',
        can_report: 'canReport',
        can_manage_ape_keys: 'canManageApeKeys',
        xp: 'xp',
        completed_tests: 'completedTests',
        started_tests: 'startedTests',
        time_typing: 'timeTyping',
        streak_length: 'streak.length',
        streak_max_length: 'streak.maxLength',
        streak_last_result_at: 'streak.lastResultTimestamp',
        streak_hour_offset: 'streak.hourOffset',
        last_result_at: 'lastResultAt',
        profile_bio: 'profile.bio',
        profile_keyboard: 'profile.keyboard',
        profile_social_profiles: 'profile.socialProfiles',
        profile_show_activity: 'profile.showActivityOnPublicProfile',
        inventory_badges: 'badges',
        premium_start_at: 'premium.startTimestamp',
        premium_expires_at: 'premium.expirationTimestamp',
        chat_id: 'chat.id',
        chat_avatar: 'chat.avatar',
      },
      user_permissions: {
        uid: HEADER_UID,
        permission: 'permissions[].permission',
        granted_at: 'permissions[].grantedAt',
      },
    },
  },
  favoriteQuotes: { cardinality: 'one', columns: { users: { favorite_quotes: '*' } } },
  leaderboardMemory: { cardinality: 'one', columns: { users: { lb_memory: '*' } } },
  personalBest: {
    cardinality: 'many',
    columns: { personal_bests: { uid: HEADER_UID, ...PB_COLUMNS, held_result_id: 'heldResultId' } },
  },
  tag: {
    cardinality: 'many',
    columns: {
      tags: { id: 'id', uid: HEADER_UID, name: 'name', created_at: 'createdAt' },
      tag_personal_bests: {
        tag_id: 'id',
        uid: HEADER_UID,
        ...Object.fromEntries(Object.entries(PB_COLUMNS).map(([c, f]) => [c, `personalBests[].${f}`])),
      },
    },
  },
  preset: {
    cardinality: 'many',
    columns: {
      presets: {
        id: 'id',
        uid: HEADER_UID,
        name: 'name',
        config: 'config',
        setting_groups: 'settingGroups',
        created_at: 'createdAt',
      },
    },
  },
  config: {
    cardinality: 'one',
    columns: { user_configs: { uid: HEADER_UID, config: 'config', updated_at: 'updatedAt' } },
  },
  customTheme: {
    cardinality: 'many',
    columns: {
      custom_themes: { id: 'id', uid: HEADER_UID, name: 'name', colors: 'colors', created_at: 'createdAt' },
    },
  },
  resultFilterPreset: {
    cardinality: 'many',
    columns: {
      result_filter_presets: {
        id: 'id',
        uid: HEADER_UID,
        name: 'name',
        filters: 'filters',
        created_at: 'createdAt',
      },
    },
  },
  inboxMail: {
    cardinality: 'many',
    columns: {
      inbox_mail: {
        id: 'id',
        uid: HEADER_UID,
        subject: 'subject',
        body: 'body',
        rewards: 'rewards',
        timestamp: 'timestamp',
        read: 'read',
      },
    },
  },
  connection: {
    cardinality: 'many',
    columns: {
      connections: {
        id: 'id',
        initiator_uid: 'initiatorUid',
        receiver_uid: 'receiverUid',
        status: 'status',
        created_at: 'createdAt',
        last_modified: 'lastModified',
      },
    },
  },
  apeKey: {
    cardinality: 'many',
    columns: {
      ape_keys: {
        id: 'id',
        uid: HEADER_UID,
        name: 'name',
        enabled: 'enabled',
        created_on: 'createdOn',
        modified_on: 'modifiedOn',
        last_used_on: 'lastUsedOn',
      },
    },
  },
  testActivity: {
    cardinality: 'many',
    columns: { test_activity: { uid: HEADER_UID, day: 'day', tests: 'tests' } },
  },
  quoteRating: {
    cardinality: 'many',
    columns: {
      user_quote_ratings: { uid: HEADER_UID, language: 'language', quote_id: 'quoteId', rating: 'rating' },
    },
  },
  quoteSubmission: {
    cardinality: 'many',
    columns: {
      new_quotes: {
        id: 'id',
        uid: HEADER_UID,
        text: 'text',
        source: 'source',
        language: 'language',
        submitted_at: 'submittedAt',
      },
    },
  },
  report: {
    cardinality: 'many',
    columns: {
      quote_reports: {
        id: 'id',
        uid: HEADER_UID,
        type: 'type',
        content_id: 'contentId',
        quote_id: 'quoteId',
        quote_language: 'quoteLanguage',
        reason: 'reason',
        comment: 'comment',
        created_at: 'createdAt',
      },
    },
  },
  approvedQuote: {
    cardinality: 'many',
    columns: {
      quotes: {
        language: 'language',
        id: 'id',
        text: 'text',
        source: 'source',
        length: 'length',
        approved_at: 'approvedAt',
        submitted_by: 'roles',
        approved_by_uid: 'roles',
      },
    },
  },
  resultReview: {
    cardinality: 'many',
    columns: {
      result_reviews: {
        result_id: 'resultId',
        uid: HEADER_UID,
        status: 'status',
        reasons: 'reasons',
        key_timing: 'keyTiming',
        result: 'result',
        held_at: 'heldAt',
        decided_at: 'decidedAt',
        decision_reason: 'decisionReason',
      },
    },
  },
  refusedResult: {
    cardinality: 'many',
    columns: {
      refused_results: {
        id: 'id',
        uid: HEADER_UID,
        refused_at: 'refusedAt',
        status: 'status',
        check_name: 'check',
        figures: 'figures',
        body: 'body',
        client_version: 'clientVersion',
      },
    },
  },
  result: {
    cardinality: 'many',
    columns: {
      results: {
        id: 'id',
        uid: HEADER_UID,
        timestamp: 'timestamp',
        name: 'name',
        wpm: 'wpm',
        raw_wpm: 'rawWpm',
        acc: 'acc',
        consistency: 'consistency',
        key_consistency: 'keyConsistency',
        char_stats: 'charStats',
        mode: 'mode',
        mode2: 'mode2',
        quote_length: 'quoteLength',
        language: 'language',
        difficulty: 'difficulty',
        punctuation: 'punctuation',
        numbers: 'numbers',
        lazy_mode: 'lazyMode',
        blind_mode: 'blindMode',
        bailed_out: 'bailedOut',
        stop_on_letter: 'stopOnLetter',
        funbox: 'funbox',
        tags: 'tags',
        test_duration: 'testDuration',
        afk_duration: 'afkDuration',
        incomplete_test_seconds: 'incompleteTestSeconds',
        restart_count: 'restartCount',
        is_pb: 'isPb',
        xp: 'xp',
        chart_data: 'chartData',
        key_spacing_stats: 'keySpacingStats',
        key_duration_stats: 'keyDurationStats',
      },
    },
  },
};

/** Stored columns of the source tables that no record carries, and why. */
export const OMITTED_COLUMNS: Record<string, Record<string, string>> = {
  users: {
    last_result_hashes:
      'hashes of the latest results, kept only for the duplicate-submission check (466); derived from results',
  },
  ape_keys: {
    hash: 'the bcrypt hash of the key secret: a credential, never exported',
    hash_scheme: 'how the secret was hashed: meaningful only next to the hash, which is never exported',
  },
  result_reviews: {
    decided_by:
      "the deciding moderator's uid: another user's data (emptied when that moderator's account is deleted)",
  },
  quotes: {
    approved_by:
      "the approving moderator's name: another user's data (the account's own name is in the account record)",
  },
};

/**
 * Tables that hold a user's rows derived from exported records (rebuilt by the instance, never exported or imported):
 * the all-time boards' copy of qualifying personal bests, its change queue, the snapshot and its rank marks; and the
 * queue of removals from the daily and weekly (Redis) boards, which a ban, an opt-out, a reset or a deletion of the
 * account fills and the post-commit purge drains (a work queue: nothing of it outlives its application).
 */
export const DERIVED_TABLES: Record<string, DataRecordType> = {
  leaderboard_bests: 'personalBest',
  leaderboard_best_changes: 'personalBest',
  leaderboard_entries: 'personalBest',
  leaderboard_rank_marks: 'personalBest',
  leaderboard_board_removals: 'account',
};
